import { readFileSync, statSync } from 'node:fs';

/** `<STATIC_DIR>/remotes.json`, written (atomically, by rename) by the deploy scripts. */
export interface RemoteRegistry {
  remotes: Record<string, { version: string; manifest: string; routes?: string[] }>;
}

export interface RemoteOrigins {
  /** Origins (`https://cdn.example`) of remotes whose manifest URL is absolute. Sorted, unique. */
  current(): string[];
}

export function originsOf(registry: unknown): string[] {
  const remotes = (registry as Partial<RemoteRegistry> | null)?.remotes;
  if (!remotes || typeof remotes !== 'object') return [];
  const origins = new Set<string>();
  for (const entry of Object.values(remotes)) {
    const manifest = entry?.manifest;
    if (typeof manifest !== 'string' || !/^https?:\/\//i.test(manifest)) continue;
    try {
      origins.add(new URL(manifest).origin);
    } catch {
      // not a valid absolute URL: ignore
    }
  }
  return [...origins].sort();
}

/**
 * Reads the registry file's remote origins, re-reading only when its mtime or
 * size changes. A missing file means no remote origins; an unreadable or
 * malformed one keeps the last good value.
 */
export function createRemoteOrigins(file: string | null, onError?: (err: unknown) => void): RemoteOrigins {
  let stamp = '';
  let origins: string[] = [];
  return {
    current() {
      if (file === null) return origins;
      let next: string;
      try {
        const stat = statSync(file);
        next = `${stat.mtimeMs}:${stat.size}`;
      } catch {
        stamp = '';
        origins = [];
        return origins;
      }
      if (next === stamp) return origins;
      try {
        origins = originsOf(JSON.parse(readFileSync(file, 'utf8')));
        stamp = next;
      } catch (err) {
        onError?.(err);
      }
      return origins;
    },
  };
}
