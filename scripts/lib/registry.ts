import { createHash, randomUUID } from 'node:crypto';
import { link, mkdir, open, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertSealed, type SealedEntry } from './integrity.ts';
import { DEPLOY_DIR, type RemoteName } from './paths.ts';

/** A version's entry; deploys since issue 35 also record its entry script and both digests. */
export interface RegistryEntry extends Partial<Omit<SealedEntry, 'manifest'>> {
  version: string;
  manifest: string;
  routes: string[];
  /** A version a share of visitors gets (scripts/lib/canary.ts; served by server/src/http/remote-canary.ts). */
  canary?: SealedEntry & {
    version: string;
    percent: number;
    /** ISO time it started: the server's canary watch counts load reports from there. */
    startedAt?: string;
    /** `--auto-rollback`: the server ends it when it fails more than stable (server/src/modules/client-events). */
    autoRollback?: AutoRollbackSettings;
  };
  /** Visitor key (`u:<user id>`) to a version, for support. */
  pins?: Record<string, SealedEntry & { version: string }>;
}
export interface Registry {
  remotes: Record<string, RegistryEntry>;
  /** Random, written with the first canary: the buckets' salt. */
  bucketSalt?: string;
}
/** Percentage points a canary's failure rate may exceed the stable's by, over at least minLoads attempts. */
export interface AutoRollbackSettings {
  marginPct: number;
  minLoads: number;
}

/** Per remote: every version deployed, oldest first, and which one is live. */
export interface History {
  versions: { version: string; routes: string[]; deployedAt: string; sealed?: SealedEntry }[];
  current: string | null;
  /**
   * The versions that were live before `current`, oldest first: each change of the live version (a
   * deploy, a promote, a rollback by name) pushes the one it replaced, a plain rollback pops. Unset in
   * histories written before it (a plain rollback then falls back to the deploy order).
   */
  liveBefore?: string[];
}

/** How many earlier live versions a history keeps: enough to walk back, bounded so the file stays small. */
const LIVE_BEFORE_MAX = 50;

/** `liveBefore` after `version` replaced `live` (a redeploy of the live version is no change). */
export function pushLiveBefore(history: History, live: string | null, version: string): string[] | undefined {
  if (live === null || live === version) return history.liveBefore;
  return [...(history.liveBefore ?? []), live].slice(-LIVE_BEFORE_MAX);
}

/**
 * Where a plain rollback goes: the version that was live before the live one, still in the history;
 * with what `liveBefore` becomes. A rollback after a rollback goes further back (it never returns to
 * the version it just left: naming that version does). Before `liveBefore` existed: the previous deploy.
 */
export function rollbackTarget(history: History): { version: string; liveBefore: string[] } | null {
  if (history.liveBefore === undefined) {
    const index = history.versions.findIndex((v) => v.version === history.current);
    const previous = index > 0 ? history.versions[index - 1] : undefined;
    return previous ? { version: previous.version, liveBefore: [] } : null;
  }
  const stack = [...history.liveBefore];
  while (stack.length > 0) {
    const version = stack.pop() as string;
    if (version !== history.current && history.versions.some((v) => v.version === version)) {
      return { version, liveBefore: stack };
    }
  }
  return null;
}

export const registryFile = () => path.join(DEPLOY_DIR, 'remotes.json');
export const historyFile = (name: RemoteName) => path.join(DEPLOY_DIR, 'history', `${name}.json`);

async function readJson<T>(file: string, fallback: T): Promise<T> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw error;
  }
}

/** Write-then-rename: readers see the old file or the new one, never half of one. */
export async function writeAtomic(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  // Unique per write: two writers in one process never share a temporary file.
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temp, `${JSON.stringify(value, null, 2)}\n`);
  await rename(temp, file);
}

export const readRegistry = () => readJson<Registry>(registryFile(), { remotes: {} });
export const readHistory = (name: RemoteName) => readJson<History>(historyFile(name), { versions: [], current: null });

/** How long a deploy or rollback waits for another one's registry lock before it gives up. */
const LOCK_WAIT_MS = 60_000;
const LOCK_POLL_MS = 50;
/** A lock older than this was left by a process that died mid-write: taken over. */
const LOCK_STALE_MS = 120_000;

/** The registry changed under a rollback (a deploy or another rollback won the race): nothing was written. */
export class RegistryConflictError extends Error {
  override readonly name = 'RegistryConflictError';
}

const ageMs = (file: string) =>
  stat(file).then(
    (s) => Date.now() - s.mtimeMs,
    () => 0,
  );

/**
 * Removes a lock left by a dead process, so that only one waiter ever removes it: the lock is renamed
 * to a name of this waiter's own (atomic: of several waiters only one moves a given file) and checked to
 * still be stale. Deleting it by name let two waiters that both saw it stale each delete it, the second
 * deleting the first one's new lock, and both ran. A fresh lock moved by mistake (another waiter took the
 * stale one over meanwhile) is put back with link, which never overwrites. The caller then creates the
 * lock exclusively as usual.
 */
async function takeOverStaleLock(lock: string): Promise<void> {
  const aside = `${lock}.${process.pid}.${randomUUID()}.stale`;
  try {
    await rename(lock, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if ((await ageMs(aside)) <= LOCK_STALE_MS) await link(aside, lock).catch(() => {});
  await unlink(aside).catch(() => {});
}

/** Releases the lock only if it is still ours (a lock taken over as stale belongs to its new owner). */
async function releaseLock(lock: string, token: string): Promise<void> {
  const owner = await readFile(lock, 'utf8').catch(() => null);
  if (owner?.trim() === token) await unlink(lock).catch(() => {});
}

/**
 * Runs `fn` holding the registry's lock file (created exclusively), so deploys and rollbacks of any
 * remotes read-modify-write remotes.json one after another: without it, two at once each wrote the
 * registry they had read and one change was lost.
 */
export async function withRegistryLock<T>(fn: () => Promise<T>): Promise<T> {
  const lock = `${registryFile()}.lock`;
  const token = `${process.pid}.${randomUUID()}`;
  await mkdir(path.dirname(lock), { recursive: true });
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(`${token}\n`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if ((await ageMs(lock)) > LOCK_STALE_MS) await takeOverStaleLock(lock);
      else if (Date.now() > until) throw new Error(`remotes.json is locked by another deploy (${lock})`);
      else await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
  }
  try {
    return await fn();
  } finally {
    await releaseLock(lock, token);
  }
}

/**
 * Makes `version` the live one of `name` (registry entry and history's current, under the lock).
 * `expectedLive` (compare-and-swap): refused with RegistryConflictError unless the live version is still
 * the one the caller decided from (a rollback chosen before a deploy landed must not undo that deploy).
 * `direction`: 'forward' (a deploy, a rollback by name) records the version it replaces in `liveBefore`;
 * 'back' (a plain rollback) must be going to `rollbackTarget` of the history and pops it.
 */
export async function activate(
  name: RemoteName,
  version: string,
  routes: string[],
  expectedLive?: string | null,
  sealed?: SealedEntry,
  direction: 'forward' | 'back' = 'forward',
): Promise<void> {
  const entry: RegistryEntry = sealed
    ? { version, ...sealed, routes }
    : { version, manifest: `/remotes/${name}/${version}/mf-manifest.json`, routes };
  // Fail closed: a cross-origin version without its digests never reaches the registry.
  assertSealed(entry);
  await withRegistryLock(async () => {
    const registry = await readRegistry();
    const live = registry.remotes[name]?.version ?? null;
    if (expectedLive !== undefined && live !== expectedLive) {
      throw new RegistryConflictError(`${name} is live at ${live ?? '(none)'}, not ${expectedLive ?? '(none)'}`);
    }
    const history = await readHistory(name);
    if (direction === 'back') {
      // Decided from the registry's live version (the truth), checked before anything is written.
      const target = rollbackTarget({ ...history, current: live });
      if (target?.version !== version) {
        throw new RegistryConflictError(`${name} would roll back to ${target?.version ?? '(none)'}, not ${version}`);
      }
      history.liveBefore = target.liveBefore;
    } else {
      const liveBefore = pushLiveBefore(history, live, version);
      if (liveBefore) history.liveBefore = liveBefore;
    }
    // A new stable version ends a canary (its share goes back to stable); pins stay until ops lift them.
    const pins = registry.remotes[name]?.pins;
    registry.remotes[name] = pins ? { ...entry, pins } : entry;
    await writeAtomic(registryFile(), registry);
    history.current = version;
    await writeAtomic(historyFile(name), history);
  });
}

/** Adds a deployed version to the remote's history (under the lock; activate makes it live). */
export async function recordDeploy(
  name: RemoteName,
  version: string,
  routes: string[],
  sealed?: SealedEntry,
): Promise<void> {
  await withRegistryLock(async () => {
    const history = await readHistory(name);
    const known = history.versions.find((v) => v.version === version);
    if (!known)
      history.versions.push({ version, routes, deployedAt: new Date().toISOString(), ...(sealed && { sealed }) });
    // Sealed once: a redeploy of the same content keeps the digests taken when it first went out.
    else if (sealed && !known.sealed) known.sealed = sealed;
    await writeAtomic(historyFile(name), history);
  });
}

/** A version is named by the package version and a hash of the built files. */
export async function contentVersion(dir: string, packageVersion: string): Promise<string> {
  const hash = createHash('sha256');
  const entries = (await readdir(dir, { withFileTypes: true, recursive: true }))
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  for (const file of entries) {
    hash.update(path.relative(dir, file));
    hash.update(await readFile(file));
  }
  return `${packageVersion}-${hash.digest('hex').slice(0, 10)}`;
}
