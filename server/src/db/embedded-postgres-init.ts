import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { handleLeftover } from './embedded-postgres-leftover.ts';
import type { Binaries, Ids } from './embedded-postgres-reach.ts';

const execFileAsync = promisify(execFile);

/** The cluster's binaries, its system user and its data folder, made by initdb on first start (embedded-postgres.ts). */

export const SUPERUSER = 'postgres';

export async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch (cause) {
    throw new Error(`PostgreSQL binaries not found (${name}); is embedded-postgres installed?`, { cause });
  }
}

/** PostgreSQL refuses to run as root: run it as the `postgres` system user, created if needed. */
export async function postgresUser(): Promise<Ids | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const lookup = async (): Promise<Ids> => {
    const [uid, gid] = await Promise.all([
      execFileAsync('id', ['-u', SUPERUSER]).then((r) => Number.parseInt(r.stdout, 10)),
      execFileAsync('id', ['-g', SUPERUSER]).then((r) => Number.parseInt(r.stdout, 10)),
    ]);
    return { uid, gid };
  };
  try {
    return await lookup();
  } catch {
    await execFileAsync('groupadd', ['--system', SUPERUSER]).catch(() => undefined);
    await execFileAsync('useradd', ['--system', '-g', SUPERUSER, SUPERUSER]);
    return lookup();
  }
}

async function runInitdb(bin: Binaries, dataDir: string, password: string, ids: Ids | undefined, ephemeral: boolean) {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (ids) await chown(dataDir, ids.uid, ids.gid);
  const pwfile = path.join(os.tmpdir(), `pg-pw-${randomBytes(8).toString('hex')}`);
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  if (ids) await chown(pwfile, ids.uid, ids.gid);
  try {
    await execFileAsync(
      bin.initdb,
      [
        `--pgdata=${dataDir}`,
        `--username=${SUPERUSER}`,
        '--auth=scram-sha-256',
        `--pwfile=${pwfile}`,
        '--encoding=UTF8',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--no-instructions',
        ...(ephemeral ? ['--no-sync'] : []),
      ],
      { ...ids, cwd: '/', env: { ...process.env, LC_ALL: 'C' } },
    );
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? '';
    throw new Error(`initdb failed: ${stderr.trim() || String(err)}`, { cause: err });
  } finally {
    await rm(pwfile, { force: true });
  }
}

/**
 * The superuser's password of the cluster in `dataDir`: read for an existing one (after stopping a
 * postmaster a dead process left running), or a new cluster made by initdb.
 */
export async function prepareCluster(
  dir: string,
  dataDir: string,
  init: { bin: Binaries; ids: Ids | undefined; ephemeral: boolean; log: (msg: string) => void },
): Promise<string> {
  const { bin, ids, ephemeral, log } = init;
  const passwordFile = path.join(dir, 'pg-password');
  // A primary demoted by `npm run ops -- failover` (replication/failover.ts) must never take writes
  // again: a second writable primary would split the books. It returns only rebuilt as a standby.
  if (existsSync(path.join(dataDir, 'fenced'))) {
    throw new Error(
      `${dataDir} was fenced by a failover (${(await readFile(path.join(dataDir, 'fenced'), 'utf8')).trim()}); ` +
        'rebuild it as a standby of the new primary instead of starting it',
    );
  }
  let password: string;
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) {
    password = (
      await readFile(passwordFile, 'utf8').catch(() => {
        throw new Error(`${passwordFile} is missing; cannot connect to the existing cluster in ${dataDir}`);
      })
    ).trim();
    await handleLeftover(dir, dataDir, log);
  } else {
    log(`initialising a new PostgreSQL cluster in ${dataDir}`);
    password = randomBytes(18).toString('base64url');
    await runInitdb(bin, dataDir, password, ids, ephemeral);
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  }

  return password;
}
