import { createHash } from 'node:crypto';

/**
 * Canary by user share (issue 35 item 3). The registry file (written by scripts/lib/registry.ts under
 * its lock, compare-and-swap on the live versions) may give a remote, besides its stable version, a
 * canary `{version, percent, ...}` and per-visitor pins. The server answers `/remotes.json` per
 * visitor: a remote's canary when the visitor's bucket, a hash of (user id or anonymous id, remote,
 * the registry's salt), falls under its percent. Sticky: same visitor, same remote, same salt, same
 * answer on every visit and every API instance (they all read one file). Pins and the salt never leave
 * the server: the browser gets a plain registry.
 */

/** What a version of a remote is: where it is, and its digests (scripts/lib/integrity.ts). */
export interface VersionFields {
  version: string;
  manifest: string;
  entry?: string;
  integrity?: string;
  manifestIntegrity?: string;
}
export interface CanaryFields extends VersionFields {
  percent: number;
  /** When it started (ISO): the canary watch counts reports from there. */
  startedAt?: string;
  /** Set by `--auto-rollback`: the server ends the canary when it fails more than stable by the margin. */
  autoRollback?: { marginPct: number; minLoads: number };
}
export interface StoredEntry extends VersionFields {
  routes?: string[];
  canary?: CanaryFields;
  /** Visitor key (`u:<user id>` or `a:<anonymous id>`) to a version, set by ops for support. */
  pins?: Record<string, VersionFields>;
}
export interface StoredRegistry {
  remotes: Record<string, StoredEntry>;
  /** Random, written with the first canary: changing it reshuffles every bucket. */
  bucketSalt?: string;
}

/** Buckets 0..99 (a percent is a whole number): from the first 4 bytes of sha256, bias under 1e-7. */
export function bucketOf(visitorKey: string, remote: string, salt: string): number {
  const digest = createHash('sha256').update(`${salt}\0${remote}\0${visitorKey}`).digest();
  return digest.readUInt32BE(0) % 100;
}

const versionOnly = ({ version, manifest, entry, integrity, manifestIntegrity }: VersionFields) => ({
  version,
  manifest,
  ...(entry !== undefined && { entry }),
  ...(integrity !== undefined && { integrity }),
  ...(manifestIntegrity !== undefined && { manifestIntegrity }),
});

/** Whether the answer depends on the visitor (then it is `private, no-store`). */
export function isPerVisitor(registry: StoredRegistry): boolean {
  return Object.values(registry.remotes ?? {}).some((entry) => entry.canary || entry.pins);
}

/** The plain registry one visitor gets: per remote its pin, else its canary when in the bucket, else stable. */
export function registryForVisitor(registry: StoredRegistry, visitorKey: string | null): { remotes: object } {
  const salt = registry.bucketSalt ?? '';
  const remotes: Record<string, object> = {};
  for (const [name, entry] of Object.entries(registry.remotes ?? {})) {
    const pinned = visitorKey ? entry.pins?.[visitorKey] : undefined;
    const canary = entry.canary;
    const inCanary = canary !== undefined && visitorKey !== null && bucketOf(visitorKey, name, salt) < canary.percent;
    const chosen = pinned ?? (inCanary ? canary : entry);
    remotes[name] = { ...versionOnly(chosen), routes: entry.routes ?? [] };
  }
  return { remotes };
}
