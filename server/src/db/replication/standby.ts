import { chmod, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { takeBaseBackup } from '../backup/base-backup.ts';
import { unpackBase } from '../backup/restore.ts';
import { type ArchiveLayout, archiveSettings, restoreCommand } from '../backup/wal-archive.ts';
import { type EmbeddedPostgres, type EmbeddedPostgresOptions, startEmbeddedPostgres } from '../embedded-postgres.ts';

/**
 * A streaming standby of an embedded primary, made from a fresh base backup (the same low-level copy
 * as the archive's) with `standby.signal`: it streams from the primary (primary_conninfo), falls back
 * to the WAL archive when it is behind (restore_command), and serves read-only queries. Made
 * synchronous on the primary (synchronous_standby_names + synchronous_commit = on), a commit the API
 * acknowledged is on both servers. After promotion it archives into the same folder (next timeline).
 */

async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface StandbyOptions {
  primaryAdminUrl: string;
  primaryDataDir: string;
  /** The primary's DATA_DIR/pg-password (the standby keeps the same superuser). */
  passwordFile: string;
  layout: ArchiveLayout;
  /** A new DATA_DIR-style folder for the standby. */
  into: string;
  name?: string;
  port?: number;
  ephemeral?: boolean;
  log?: (line: string) => void;
  /** Run the standby on its own "host" (a network namespace: netns.ts, the multi-host rehearsal). */
  netns?: EmbeddedPostgresOptions['netns'];
}

export async function startStandby(options: StandbyOptions): Promise<EmbeddedPostgres> {
  const name = options.name ?? 'standby1';
  const base = await takeBaseBackup({
    adminUrl: options.primaryAdminUrl,
    dataDir: options.primaryDataDir,
    layout: options.layout,
  });
  await mkdir(options.into, { recursive: true });
  await chmod(options.into, 0o755);
  await unpackBase(base, options.layout, options.into, 'standby.signal');
  await copyFile(options.passwordFile, path.join(options.into, 'pg-password'));
  const primary = new URL(options.primaryAdminUrl);
  const password = (await readFile(options.passwordFile, 'utf8')).trim();
  const conninfo = `host=${primary.hostname} port=${primary.port} user=postgres password=${password} application_name=${name}`;
  return startEmbeddedPostgres({
    dir: options.into,
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.ephemeral ? { ephemeral: true } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.netns ? { netns: options.netns } : {}),
    settings: {
      ...base.hotStandbySettings,
      ...archiveSettings(options.layout),
      synchronous_commit: 'on',
      hot_standby: 'on',
      primary_conninfo: conninfo,
      restore_command: restoreCommand(options.layout),
      recovery_target_timeline: 'latest',
    },
  });
}

/** Makes the primary wait for `name` on every commit, and waits until that standby streams in sync. */
export async function requireSynchronousStandby(primaryAdminUrl: string, name = 'standby1', timeoutMs = 30_000) {
  await admin(primaryAdminUrl, async (c) => {
    await c.query(`alter system set synchronous_standby_names = '${name.replace(/[^a-z0-9_]/gi, '')}'`);
    await c.query(`alter system set synchronous_commit = 'on'`);
    await c.query('select pg_reload_conf()');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await c.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_replication where application_name = $1 and sync_state = 'sync' and state = 'streaming'`,
        [name],
      );
      if (rows[0]?.n === 1) return;
      if (Date.now() > deadline)
        throw new Error(`standby ${name} is not streaming synchronously after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
}

/**
 * Failover: fence the old primary's folder FIRST (our start path refuses a fenced folder, so it can
 * never come back writable: split brain), then promote the standby, then let the new primary commit
 * alone (it has no standby yet; with synchronous_standby_names still set every commit would wait).
 * Until the old primary is rebuilt as a standby of the new one, commits are on one server: the
 * dashboard must show "no standby" (pg_stat_replication empty).
 */
export async function failover(options: { standbyAdminUrl: string; oldPrimaryDataDir?: string; reason: string }) {
  if (options.oldPrimaryDataDir) {
    await writeFile(
      path.join(options.oldPrimaryDataDir, 'fenced'),
      `${new Date().toISOString()} ${options.reason.replace(/\s+/g, ' ').slice(0, 200)}\n`,
    ).catch((err: NodeJS.ErrnoException) => {
      // A lost disk cannot be written: it is also unable to start. Anything else must stop the failover.
      if (err.code !== 'ENOENT') throw err;
    });
  }
  await admin(options.standbyAdminUrl, async (c) => {
    const { rows } = await c.query<{ promoted: boolean }>('select pg_promote(true, 30) as promoted');
    if (!rows[0]?.promoted) throw new Error('the standby did not promote within 30 s');
    await c.query(`alter system set synchronous_standby_names = ''`);
    await c.query('select pg_reload_conf()');
  });
}
