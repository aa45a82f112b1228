import { isRegistry, type Registry, type RegistryEntry } from '@cw/shared-state/contracts';

let registryPromise: Promise<Registry> | null = null;
let registryFailed = false;

async function fetchRegistry(): Promise<Registry> {
  const response = await fetch('/remotes.json', { cache: 'no-cache', headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`registry answered ${response.status}`);
  const body: unknown = await response.json();
  if (!isRegistry(body)) throw new Error('registry has an unexpected shape');
  return body;
}

/**
 * The registry maps each remote to one immutable version. It is fetched once
 * per page load (served no-cache), so a deploy shows on the next page load.
 * A failure stays cached until the user retries (forgetRegistryFailure).
 */
export function loadRegistry(): Promise<Registry> {
  if (!registryPromise) {
    registryPromise = fetchRegistry();
    registryPromise.catch(() => {
      registryFailed = true;
    });
  }
  return registryPromise;
}

export function forgetRegistryFailure(): void {
  if (!registryFailed) return;
  registryPromise = null;
  registryFailed = false;
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
