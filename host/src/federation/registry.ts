import { isRegistry, type Registry, type RegistryEntry } from '@cw/shared-state/contracts';

let registryPromise: Promise<Registry> | null = null;
let registryFailed = false;
/** A remote failed to load: its version may have been rolled back or replaced since this tab read the registry. */
let registryStale = false;
let registryFetchedAt = 0;
/** A registry older than this is read again on the next retry, even if nothing failed. */
export const REGISTRY_MAX_AGE_MS = 5 * 60_000;

async function fetchRegistry(): Promise<Registry> {
  const response = await fetch('/remotes.json', { cache: 'no-cache', headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`registry answered ${response.status}`);
  const body: unknown = await response.json();
  if (!isRegistry(body)) throw new Error('registry has an unexpected shape');
  return body;
}

/**
 * The registry maps each remote to one immutable version. It is fetched once
 * per page load (served no-cache), so a deploy shows on the next page load, and
 * again on a retry after a remote failed to load or once it is old.
 * A failure stays cached until the user retries (forgetRegistryFailure).
 */
export function loadRegistry(): Promise<Registry> {
  if (!registryPromise) {
    registryFetchedAt = Date.now();
    registryPromise = fetchRegistry();
    registryPromise.catch(() => {
      registryFailed = true;
    });
  }
  return registryPromise;
}

/** A remote of this registry failed to load: the next retry reads the registry again (issue 40 item 8). */
export function markRegistryStale(): void {
  registryStale = true;
}

/**
 * Before a retry: forget a failed registry, one a remote failed to load from (an open tab learns of a
 * deploy or rollback there), or one older than REGISTRY_MAX_AGE_MS.
 */
export function forgetRegistryFailure(now: number = Date.now()): void {
  if (!registryFailed && !registryStale && now - registryFetchedAt < REGISTRY_MAX_AGE_MS) return;
  registryPromise = null;
  registryFailed = false;
  registryStale = false;
}

export interface RemoteOwner {
  name: string;
  entry: RegistryEntry;
}

/** The remote that owns a path: longest matching route prefix wins. */
export function findOwner(registry: Registry, pathname: string): RemoteOwner | null {
  let best: RemoteOwner | null = null;
  let bestLength = -1;
  for (const [name, entry] of Object.entries(registry.remotes)) {
    for (const prefix of entry.routes) {
      const matches = pathname === prefix || pathname.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
      if (matches && prefix.length > bestLength) {
        best = { name, entry };
        bestLength = prefix.length;
      }
    }
  }
  return best;
}
