import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * Running as root, PostgreSQL runs as the unprivileged `postgres` user, which must reach both
 * its binaries (under node_modules) and its data folder through every parent folder. A checkout
 * inside root's home (mode 0700, the default in most containers) or a `mktemp -d` folder is not
 * reachable, and initdb would fail with a bare EACCES. Rather than loosening the user's folders,
 * we stage the binaries and, when needed, the cluster under a root-owned folder the postgres user
 * can reach.
 */
export interface Ids {
  uid: number;
  gid: number;
}

export interface Binaries {
  postgres: string;
  initdb: string;
}

/** Root-owned; every folder on the way must be writable by root only (checked before use). */
export const STAGE_ROOT = process.env.EMBEDDED_PG_STAGE_DIR ?? '/var/lib/cw-wallet';

/** Whether `ids` passes `test <flag> target`, i.e. can traverse every parent folder of it. */
export async function reachableBy(ids: Ids, target: string, flag: '-x' | '-r' = '-x'): Promise<boolean> {
  try {
    await execFileAsync('test', [flag, target], { uid: ids.uid, gid: ids.gid, cwd: '/' });
    return true;
  } catch {
    return false;
  }
}

/** Refuses a staging folder another user could write into: its binaries run as the postgres user. */
async function assertRootOwnedPath(folder: string): Promise<void> {
  let current = path.resolve(folder);
  for (;;) {
    const info = await lstat(current);
    if (info.uid !== 0 || (info.mode & 0o022) !== 0 || info.isSymbolicLink()) {
      throw new Error(
        `${current} must be a folder owned by root and writable by root only to hold PostgreSQL's binaries ` +
          '(set EMBEDDED_PG_STAGE_DIR to such a folder, or clone the project where the postgres user can read it)',
      );
    }
    const parent = path.dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

async function ensureStageRoot(): Promise<void> {
  await mkdir(STAGE_ROOT, { recursive: true, mode: 0o755 });
  await assertRootOwnedPath(STAGE_ROOT);
}

/**
 * The binaries as the postgres user can run them: in place when reachable, otherwise a copy of
 * the package's `native/` folder (bin, lib and share keep their relative layout) under STAGE_ROOT,
 * made once per package version and renamed into place so that concurrent starts agree.
 */
export async function reachableBinaries(bin: Binaries, ids: Ids | undefined, log: (m: string) => void) {
  if (!ids || (await reachableBy(ids, bin.postgres))) return bin;
  const nativeDir = path.dirname(path.dirname(bin.postgres));
  const pkg = JSON.parse(await readFile(path.join(nativeDir, '..', 'package.json'), 'utf8')) as { version: string };
  await ensureStageRoot();
  const target = path.join(STAGE_ROOT, `postgres-${pkg.version}`);
  if (!existsSync(path.join(target, '.complete'))) {
    log(`the postgres user cannot reach ${nativeDir}; copying PostgreSQL's binaries to ${target}`);
    const staging = `${target}.tmp-${randomBytes(6).toString('hex')}`;
    await cp(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
    await writeFile(path.join(staging, '.complete'), `${nativeDir}\n`);
    await rename(staging, target).catch(async (err: NodeJS.ErrnoException) => {
      // Another process staged the same version first: use theirs.
      await rm(staging, { recursive: true, force: true });
      if (!existsSync(path.join(target, '.complete'))) throw err;
    });
  }
  const staged = {
    postgres: path.join(target, 'bin', 'postgres'),
    initdb: path.join(target, 'bin', 'initdb'),
  };
  if (!(await reachableBy(ids, staged.postgres))) {
    throw new Error(`the postgres user cannot run ${staged.postgres}; check the permissions of ${STAGE_ROOT}`);
  }
  return staged;
}

/**
 * Where the cluster lives: `dir/pg` when the postgres user can reach `dir`; otherwise a folder under
 * STAGE_ROOT named by a hash of `dir`, recorded in `dir/pg-location`. A relocated cluster belongs to
 * `dir`'s password file: without it (a deleted data folder) the old cluster is dropped, as deleting
 * `dir` would have dropped an in-place one.
 */
export async function clusterDataDir(dir: string, ids: Ids | undefined, log: (m: string) => void): Promise<string> {
  const inPlace = path.join(dir, 'pg');
  if (!ids || (await reachableBy(ids, dir))) return inPlace;
  await ensureStageRoot();
  const key = createHash('sha256').update(dir).digest('hex').slice(0, 16);
  const holder = path.join(STAGE_ROOT, 'clusters', key);
  const dataDir = path.join(holder, 'pg');
  if (!existsSync(path.join(dir, 'pg-password'))) await rm(holder, { recursive: true, force: true });
  await mkdir(holder, { recursive: true, mode: 0o755 });
  await writeFile(path.join(dir, 'pg-location'), `${dataDir}\n`);
  log(`the postgres user cannot reach ${dir} (a parent folder is private); the cluster lives in ${dataDir}`);
  return dataDir;
}
