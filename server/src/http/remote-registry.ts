import { readFileSync, statSync } from 'node:fs';

/** `<STATIC_DIR>/remotes.json`, written (atomically, by rename) by the deploy scripts. */
export interface RemoteRegistry {
  remotes: Record<string, { version: string; manifest: string; routes?: string[] }>;
}

export interface RemoteOrigins {
  /** Origins (`https://cdn.example`) of remotes whose manifest URL is absolute and pinned. Sorted, unique. */
  current(): string[];
}

/**
 * REMOTE_ORIGINS: the only origins a remote may be served from besides our own (comma-separated, e.g.
 * `https://cdn.example.com`). The registry is data a deploy writes; were its URLs trusted, a poisoned
 * registry would authorise its own origin in script-src. Unset: same-origin remotes only.
 */
export function pinnedRemoteOrigins(value: string | undefined): string[] {
  const origins = new Set<string>();
  for (const part of (value ?? '').split(',')) {
    const text = part.trim();
    if (!text) continue;
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new Error(`REMOTE_ORIGINS: ${text} is not http(s)`);
    origins.add(url.origin);
  }
  return [...origins].sort();
}

export function originsOf(registry: unknown, pinned: readonly string[] = []): string[] {
  const remotes = (registry as Partial<RemoteRegistry> | null)?.remotes;
  if (!remotes || typeof remotes !== 'object') return [];
  const origins = new Set<string>();
  for (const entry of Object.values(remotes)) {
    const manifest = entry?.manifest;
    if (typeof manifest !== 'string' || !/^https?:\/\//i.test(manifest)) continue;
    try {
      const origin = new URL(manifest).origin;
      if (pinned.includes(origin)) origins.add(origin);
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
export function createRemoteOrigins(
  file: string | null,
  onError?: (err: unknown) => void,
  pinned: readonly string[] = [],
): RemoteOrigins {
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
        origins = originsOf(JSON.parse(readFileSync(file, 'utf8')), pinned);
        stamp = next;
      } catch (err) {
        onError?.(err);
      }
      return origins;
    },
  };
}
