import { isRemoteRoutesModule, type RegistryEntry, type RemoteRoutesModule } from '@cw/shared-state/contracts';
import type { ModuleFederation } from '@module-federation/runtime';
import { wantOverlays } from '../app/overlay-demand.ts';
import { expectIntegrity, integrityPlugin } from './integrity-plugin.ts';
import { loadReportsPlugin, reportLoad } from './load-reports.ts';
import { markRegistryStale } from './registry.ts';

let federationPromise: Promise<ModuleFederation> | null = null;

/** The federation runtime loads only when a remote is first needed: never on the landing page. */
function federation(): Promise<ModuleFederation> {
  wantOverlays();
  federationPromise ??= Promise.all([import('@module-federation/runtime'), import('./shared-modules.ts')]).then(
    ([runtime, shared]) =>
      runtime.createInstance({
        name: 'host',
        remotes: [],
        shared: shared.sharedModules(),
        shareStrategy: 'loaded-first',
        plugins: [integrityPlugin(), loadReportsPlugin((remote) => versions.get(remote))],
      }),
  );
  return federationPromise;
}

export class RemoteContractError extends Error {
  constructor(remote: string) {
    super(`remote ${remote} does not expose a valid ./routes module`);
  }
}

const cache = new Map<string, Promise<RemoteRoutesModule>>();
const failed = new Set<string>();

/**
 * One load per remote version. A failure stays cached (React re-renders a
 * suspended tree, and a fresh promise each time would retry forever) until
 * the user asks to retry with forgetRemoteFailures().
 */
export function loadRemoteRoutes(name: string, entry: RegistryEntry): Promise<RemoteRoutesModule> {
  const key = `${name}@${entry.version}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = loadFresh(name, entry);
    cache.set(key, pending);
    pending.catch(() => {
      failed.add(key);
      // The version may be gone (a rollback, a newer deploy): the retry reads the registry again.
      markRegistryStale();
    });
  }
  return pending;
}

export function forgetRemoteFailures(): void {
  for (const key of failed) cache.delete(key);
  failed.clear();
}

const registered = new Map<string, string>();
/** The version registered for each remote: what its load reports carry. */
const versions = new Map<string, string>();

async function loadFresh(name: string, entry: RegistryEntry): Promise<RemoteRoutesModule> {
  const mf = await federation();
  expectIntegrity(entry);
  versions.set(name, entry.version);
  if (registered.get(name) !== entry.manifest || failed.size > 0) {
    // force: a retry after a failure must not reuse the failed entry.
    mf.registerRemotes([{ name, entry: entry.manifest }], { force: registered.has(name) });
    registered.set(name, entry.manifest);
  }
  const exposed = await mf.loadRemote<unknown>(`${name}/routes`);
  const candidate = typeof exposed === 'object' && exposed !== null && 'default' in exposed ? exposed.default : exposed;
  if (!isRemoteRoutesModule(candidate)) {
    // The runtime saw a load; the host's contract check did not: reported as a failure of its own.
    reportLoad({ remote: name, version: entry.version, kind: 'failure', code: 'CONTRACT' });
    throw new RemoteContractError(name);
  }
  return candidate;
}
