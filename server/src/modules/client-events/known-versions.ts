import { readFile } from 'node:fs/promises';
import type { StoredRegistry } from '../../http/remote-canary.ts';

/**
 * The `<remote>@<version>` pairs the registry names now (stable, canary, pins): the only versions
 * whose reports are counted. Null without a registry file (an API without static files).
 */
export function knownVersionsOf(registryFile: string | null): () => Promise<Set<string> | null> {
  return async () => {
    if (registryFile === null) return null;
    let registry: StoredRegistry;
    try {
      registry = JSON.parse(await readFile(registryFile, 'utf8')) as StoredRegistry;
    } catch {
      return new Set();
    }
    const known = new Set<string>();
    for (const [name, entry] of Object.entries(registry.remotes ?? {})) {
      known.add(`${name}@${entry.version}`);
      if (entry.canary) known.add(`${name}@${entry.canary.version}`);
      for (const pinned of Object.values(entry.pins ?? {})) known.add(`${name}@${pinned.version}`);
    }
    return known;
  };
}
