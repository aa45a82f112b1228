import { startCanary } from './canary.ts';
import type { SealedEntry } from './integrity.ts';
import type { RemoteName } from './paths.ts';
import { type AutoRollbackSettings, activate, readRegistry, recordDeploy } from './registry.ts';

/** How a deploy goes live: for everyone, or as a canary for a share of visitors (issue 35 item 3). */
export interface GoLiveOptions {
  buildId?: string;
  /** Percent of visitors (1..100) who get the new version; unset: everyone. */
  canary?: number;
  /** With canary: the server rolls it back on its own when it fails more than stable. */
  autoRollback?: AutoRollbackSettings;
}

/** The live stable version, read before the build: the canary's compare-and-swap decides from it. */
export async function liveStable(name: RemoteName): Promise<string | null> {
  return (await readRegistry()).remotes[name]?.version ?? null;
}

export async function goLive(
  name: RemoteName,
  version: string,
  routes: string[],
  sealed: SealedEntry,
  options: GoLiveOptions,
  stableBefore: string | null,
): Promise<void> {
  await recordDeploy(name, version, routes, sealed);
  if (options.canary === undefined) {
    await activate(name, version, routes, undefined, sealed);
    return;
  }
  if (stableBefore === null) throw new Error(`${name} has no stable version yet: deploy it without --canary first`);
  await startCanary(name, { version, ...sealed }, options.canary, stableBefore, options.autoRollback);
}
