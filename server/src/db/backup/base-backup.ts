import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { ArchiveLayout } from './wal-archive.ts';

const execFileAsync = promisify(execFile);

/**
 * Base backups with PostgreSQL's low-level API (pg_backup_start / pg_backup_stop): the data folder is
 * copied while the server runs (a torn copy is made whole by replaying the WAL from the start point),
 * gzipped into one tar, and published by renaming `<id>.partial` to `<id>` after manifest.json is
 * written, so a crash mid-backup leaves only a `.partial` folder that restore ignores and retention
 * deletes. PostgreSQL ends a non-exclusive backup by itself when the session that began it dies.
 */

export interface BaseBackupManifest {
  id: string;
  label: string;
  /** First WAL segment this base needs (with every later one up to stopWal). */
  startWal: string;
  stopWal: string;
  stopLsn: string;
  /** The server's clock when the copy was consistent: the earliest recovery target it can serve. */
  consistentAt: string;
  startedAt: string;
  tarSha256: string;
  tarBytes: number;
  /**
   * Settings a recovering server must not set lower than the primary (recovery aborts otherwise),
   * recorded so that the restore can pass them whatever the restoring host's defaults.
   */
  hotStandbySettings: Record<string, string>;
}

/** PostgreSQL refuses to replay WAL when any of these is lower than on the server that wrote it. */
const HOT_STANDBY_SETTINGS = [
  'max_connections',
  'max_worker_processes',
  'max_wal_senders',
  'max_prepared_transactions',
  'max_locks_per_transaction',
] as const;

/** Top-level entries that are not copied (the server recreates or must not inherit them). */
const SKIP = new Set([
  'pg_wal',
  'postmaster.pid',
  'postmaster.opts',
  'pg_replslot',
  'pg_stat_tmp',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_subtrans',
  'backup_label',
  'recovery.signal',
  'standby.signal',
  'fenced',
]);
/** Folders that must exist (empty) in a restored data folder. */
export const EMPTY_DIRS = [
  'pg_wal',
  'pg_replslot',
  'pg_stat_tmp',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_subtrans',
];

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function walFromLabel(label: string, field: 'START WAL LOCATION'): string {
  const match = new RegExp(`${field}: \\S+ \\(file ([0-9A-F]{24})\\)`).exec(label);
  if (!match?.[1]) throw new Error(`backup label has no ${field}`);
  return match[1];
}

/** tar exit 1 means "a file changed while read": expected for a live copy, made good by WAL replay. */
async function tarDataDir(dataDir: string, tarFile: string): Promise<void> {
  const entries = (await readdir(dataDir)).filter((e) => !SKIP.has(e)).sort();
  try {
    await execFileAsync(
      'tar',
      ['-czf', tarFile, '--warning=no-file-changed', '--warning=no-file-removed', '-C', dataDir, ...entries],
      { maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (err) {
    if ((err as { code?: number }).code !== 1) throw err;
  }
}

export interface TakeBaseBackupOptions {
  /** Superuser URL of the primary. */
  adminUrl: string;
  dataDir: string;
  layout: ArchiveLayout;
  /** pg_backup_stop waits for the archive; a broken archive fails the backup after this long. */
  archiveWaitTimeoutMs?: number;
  now?: () => Date;
}

export async function takeBaseBackup(options: TakeBaseBackupOptions): Promise<BaseBackupManifest> {
  const now = options.now ?? (() => new Date());
  const startedAt = now();
  const id = `${startedAt
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${randomBytes(3).toString('hex')}`;
  const partial = path.join(options.layout.baseDir, `${id}.partial`);
  const client = new pg.Client({ connectionString: options.adminUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await mkdir(partial, { recursive: true, mode: 0o750 });
    await client.query(`set statement_timeout = ${Math.trunc(options.archiveWaitTimeoutMs ?? 300_000)}`);
    const settings = await client.query<{ name: string; setting: string }>(
      'select name, setting from pg_settings where name = any($1)',
      [HOT_STANDBY_SETTINGS],
    );
    await client.query('select pg_backup_start($1, true)', [`cw-wallet ${id}`]);
    const tarFile = path.join(partial, 'base.tar.gz');
    await tarDataDir(options.dataDir, tarFile);
    const stop = await client.query<{ lsn: string; labelfile: string; stop_wal: string; at: Date }>(
      `select lsn::text, labelfile, pg_walfile_name(lsn) as stop_wal, clock_timestamp() as at
       from pg_backup_stop(true)`,
    );
    const row = stop.rows[0];
    if (!row) throw new Error('pg_backup_stop returned no row');
    await writeFile(path.join(partial, 'backup_label'), row.labelfile);
    const manifest: BaseBackupManifest = {
      id,
      label: `cw-wallet ${id}`,
      startWal: walFromLabel(row.labelfile, 'START WAL LOCATION'),
      stopWal: row.stop_wal,
      stopLsn: row.lsn,
      consistentAt: row.at.toISOString(),
      startedAt: startedAt.toISOString(),
      tarSha256: await sha256File(tarFile),
      tarBytes: (await stat(tarFile)).size,
      hotStandbySettings: Object.fromEntries(settings.rows.map((r) => [r.name, r.setting])),
    };
    await writeFile(path.join(partial, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await rename(partial, path.join(options.layout.baseDir, id));
    return manifest;
  } catch (err) {
    await rm(partial, { recursive: true, force: true });
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Complete bases (with a manifest), oldest first. */
export async function listBaseBackups(layout: ArchiveLayout): Promise<BaseBackupManifest[]> {
  if (!existsSync(layout.baseDir)) return [];
  const out: BaseBackupManifest[] = [];
  for (const entry of await readdir(layout.baseDir)) {
    if (entry.endsWith('.partial')) continue;
    const file = path.join(layout.baseDir, entry, 'manifest.json');
    if (!existsSync(file)) continue;
    out.push(JSON.parse(await readFile(file, 'utf8')) as BaseBackupManifest);
  }
  return out.sort((a, b) => a.consistentAt.localeCompare(b.consistentAt));
}

/** Log and segment of a WAL name, timeline ignored (as pg_archivecleanup compares them). */
const position = (wal: string) => wal.slice(8, 24);

/**
 * Keeps the newest `keep` bases and the WAL from the oldest kept base's start on; deletes older bases,
 * older segments and abandoned `.partial` folders (a crashed backup). Timeline history files are kept.
 */
export async function applyRetention(
  layout: ArchiveLayout,
  keep: number,
): Promise<{ basesDeleted: string[]; walDeleted: number }> {
  if (!Number.isInteger(keep) || keep < 1) throw new Error('retention must keep at least one base backup');
  const bases = await listBaseBackups(layout);
  const doomed = bases.slice(0, Math.max(0, bases.length - keep));
  const oldestKept = bases[bases.length - keep] ?? bases[0];
  for (const base of doomed) await rm(path.join(layout.baseDir, base.id), { recursive: true, force: true });
  const inProgress = await readdir(layout.baseDir).catch(() => [] as string[]);
  for (const entry of inProgress) {
    // A .partial older than an hour is a crashed backup; a younger one may be running now.
    if (!entry.endsWith('.partial')) continue;
    const started = entry.slice(0, 16);
    const iso = `${started.slice(0, 4)}-${started.slice(4, 6)}-${started.slice(6, 8)}T${started.slice(9, 11)}:${started.slice(11, 13)}:${started.slice(13, 15)}Z`;
    if (Date.now() - Date.parse(iso) > 3_600_000)
      await rm(path.join(layout.baseDir, entry), { recursive: true, force: true });
  }
  let walDeleted = 0;
  // While S3 shipping is on, a segment the bucket has not received stays (review s8 finding 8): the
  // shipper's marker names the newest WAL up to which the bucket holds everything.
  const shippedUpTo = await readFile(path.join(layout.root, 's3-shipped'), 'utf8').then(
    (t) => t.trim(),
    () => undefined,
  );
  if (oldestKept) {
    const floor = position(oldestKept.startWal);
    for (const file of await readdir(layout.walDir)) {
      const match = /^([0-9A-F]{24})(\.[0-9A-F]{8}\.backup)?\.gz(\.sha256)?$/.exec(file);
      if (!match?.[1] || position(match[1]) >= floor) continue;
      if (shippedUpTo !== undefined && !(match[1] <= shippedUpTo && shippedUpTo !== '')) continue;
      await rm(path.join(layout.walDir, file), { force: true });
      if (!file.endsWith('.sha256')) walDeleted += 1;
    }
  }
  return { basesDeleted: doomed.map((b) => b.id), walDeleted };
}
