import type { ChildProcess } from 'node:child_process';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { loadBinaries, postgresUser, prepareCluster, SUPERUSER } from './embedded-postgres-init.ts';
import { clusterDataDir, reachableBinaries } from './embedded-postgres-reach.ts';
import { waitUntilReady } from './embedded-postgres-ready.ts';
import { spawnPostgres } from './embedded-postgres-spawn.ts';

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
  const logFile = path.join(dir, 'pg.log');
  const ephemeral = options.ephemeral ?? false;
  const ids = await postgresUser();
  const bin = await reachableBinaries(await loadBinaries(), ids, log);

  await mkdir(dir, { recursive: true });
  // The postgres user must be able to reach the cluster directory (mkdtemp makes 0700 folders).
  if (ids) await chmod(dir, 0o755);
  const dataDir = await clusterDataDir(dir, ids, log);
  const password = await prepareCluster(dir, dataDir, { bin, ids, ephemeral, log });

  const port = options.port ?? (await freePort());
  const host = options.netns?.host ?? '127.0.0.1';
  if (options.netns) await allowHosts(dataDir, options.netns.hba);
  const child = await spawnPostgres(bin.postgres, {
    dir,
    dataDir,
    port,
    host,
    ids,
    ephemeral,
    settings: options.settings,
    netns: options.netns?.name,
  });

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

  return clusterHandle({ port, dataDir, dir, url, child, killOnExit, log });
}

/** What startEmbeddedPostgres returns: the running cluster's address, database creation and stop. */
function clusterHandle(cluster: {
  port: number;
  dataDir: string;
  dir: string;
  url: (database?: string) => string;
  child: ChildProcess;
  killOnExit: () => void;
  log: (msg: string) => void;
}): EmbeddedPostgres {
  const { port, dataDir, dir, url, child, killOnExit, log } = cluster;
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
