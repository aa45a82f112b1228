/**
 * Canary releases of a remote (issue 35 item 3), as changes of the registry file: each is one
 * compare-and-swap write under the registry lock (registry.ts), refused with RegistryConflictError
 * when what the caller decided from (the live stable version, the running canary) changed meanwhile.
 *
 * Why a file and not a PostgreSQL row: the registry already is the file every API instance reads per
 * request from the shared STATIC_DIR (it is also what the static host serves from), writes are
 * atomic by rename and serialised by an exclusive lock file, and a deploy must work with the database
 * down. Several instances agree because they read the same file; none keeps it in memory.
 */
import { randomBytes } from 'node:crypto';
import type { SealedEntry } from './integrity.ts';
import type { RemoteName } from './paths.ts';
import {
  type AutoRollbackSettings,
  historyFile,
  pushLiveBefore,
  type Registry,
  RegistryConflictError,
  readHistory,
  readRegistry,
  registryFile,
  withRegistryLock,
  writeAtomic,
} from './registry.ts';

export const MAX_PERCENT = 100;

type Change = (registry: Registry) => void;

async function change(name: RemoteName, apply: Change): Promise<Registry> {
  return withRegistryLock(async () => {
    const registry = await readRegistry();
    if (!registry.remotes[name]) throw new RegistryConflictError(`${name} has no stable version`);
    apply(registry);
    await writeAtomic(registryFile(), registry);
    return registry;
  });
}

/** Defaults of `--auto-rollback`: 5 points over the stable's failure rate, judged after 20 load attempts. */
export const DEFAULT_AUTO_ROLLBACK: AutoRollbackSettings = { marginPct: 5, minLoads: 20 };

function assertAutoRollback({ marginPct, minLoads }: AutoRollbackSettings): void {
  if (!Number.isInteger(marginPct) || marginPct < 0 || marginPct > 100) {
    throw new RangeError(`auto-rollback margin must be whole percentage points 0..100, not ${marginPct}`);
  }
  if (!Number.isInteger(minLoads) || minLoads < 1 || minLoads > 1_000_000) {
    throw new RangeError(`auto-rollback min loads must be a whole number 1..1000000, not ${minLoads}`);
  }
}

/** Starts a canary of `version` for `percent` % of visitors, if the stable is still `expectedStable` and none runs. */
export async function startCanary(
  name: RemoteName,
  sealed: SealedEntry & { version: string },
  percent: number,
  expectedStable: string,
  autoRollback?: AutoRollbackSettings,
): Promise<void> {
  if (!Number.isInteger(percent) || percent < 1 || percent > MAX_PERCENT) {
    throw new RangeError(`canary percent must be a whole number 1..${MAX_PERCENT}, not ${percent}`);
  }
  await change(name, (registry) => {
    const entry = registry.remotes[name];
    if (entry?.version !== expectedStable) {
      throw new RegistryConflictError(`${name} is live at ${entry?.version}, not ${expectedStable}`);
    }
    if (entry.canary) throw new RegistryConflictError(`${name} already runs canary ${entry.canary.version}`);
    if (autoRollback) assertAutoRollback(autoRollback);
    entry.canary = { ...sealed, percent, startedAt: new Date().toISOString(), ...(autoRollback && { autoRollback }) };
    registry.bucketSalt ??= randomBytes(16).toString('base64url');
  });
}

/** Makes the running canary (still `expectedCanary`) the stable version for everyone. */
export async function promoteCanary(name: RemoteName, expectedCanary: string): Promise<void> {
  await withRegistryLock(async () => {
    const registry = await readRegistry();
    const entry = registry.remotes[name];
    const canary = entry?.canary;
    if (!entry || canary?.version !== expectedCanary) {
      throw new RegistryConflictError(`${name} runs canary ${canary?.version ?? '(none)'}, not ${expectedCanary}`);
    }
    const { percent: _percent, ...version } = canary;
    registry.remotes[name] = { ...version, routes: entry.routes, ...(entry.pins && { pins: entry.pins }) };
    await writeAtomic(registryFile(), registry);
    const history = await readHistory(name);
    // The stable it replaces is what a plain rollback returns to.
    const liveBefore = pushLiveBefore(history, entry.version, version.version);
    if (liveBefore) history.liveBefore = liveBefore;
    history.current = version.version;
    await writeAtomic(historyFile(name), history);
  });
}

/** Ends the running canary (still `expectedCanary`): everyone is back on the stable version. */
export async function endCanary(name: RemoteName, expectedCanary: string): Promise<void> {
  await change(name, (registry) => {
    const entry = registry.remotes[name];
    if (entry?.canary?.version !== expectedCanary) {
      throw new RegistryConflictError(`${name} runs canary ${entry?.canary?.version ?? '(none)'}`);
    }
    delete entry.canary;
  });
}

/** Pins one visitor (`u:<user id>`) to a deployed version, or lifts the pin (version null). */
export async function pinVisitor(
  name: RemoteName,
  visitorKey: string,
  version: (SealedEntry & { version: string }) | null,
): Promise<void> {
  await change(name, (registry) => {
    const entry = registry.remotes[name];
    if (!entry) return;
    const pins = { ...entry.pins };
    if (version) pins[visitorKey] = version;
    else delete pins[visitorKey];
    if (Object.keys(pins).length > 0) entry.pins = pins;
    else delete entry.pins;
  });
}
