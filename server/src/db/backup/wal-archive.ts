import { execFile } from 'node:child_process';
import { chmod, chown, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';

const execFileAsync = promisify(execFile);

/**
 * Continuous WAL archiving to a folder (DATA_DIR/backup/wal): every finished WAL segment is gzipped
 * and stored beside the SHA-256 of its uncompressed bytes. PostgreSQL runs the shell scripts below as
 * its `archive_command` / `restore_command`; they are plain sh + coreutils + gzip so that they run as
 * the postgres user without reaching our Node install.
 *
 * Failure modes, by design:
 * - A full disk or an unwritable folder makes archive-wal.sh fail; PostgreSQL keeps the segment in
 *   pg_wal and retries, so nothing is lost, and the lag (archiveStatus) grows: that is the alert.
 * - A retry of a segment already archived (crash between our copy and PostgreSQL's bookkeeping)
 *   succeeds only when the stored checksum matches; a different file under the same name fails loudly.
 * - At restore, a missing segment means "end of the archive" (exit 1, recovery stops there), but a
 *   segment whose checksum does not match aborts recovery (exit 126: PostgreSQL treats a status above
 *   125 as fatal) rather than silently promoting a cluster that lacks the rest of the history.
 */

export const ARCHIVE_SCRIPT = `#!/bin/sh
# archive-wal.sh <archive dir> <segment path> <segment name>   (written by wal-archive.ts)
set -eu
dir=$1; src=$2; name=$3
dest="$dir/$name.gz"
trap 'rm -f "$dest.tmp.$$" "$dest.sha256.tmp.$$"' EXIT
sum=$(sha256sum "$src" | cut -d' ' -f1)
if [ -f "$dest" ]; then
  [ "$(cat "$dest.sha256" 2>/dev/null)" = "$sum" ] && exit 0
  echo "archive-wal: $dest already exists with other content" >&2
  exit 1
fi
gzip -1 -c "$src" > "$dest.tmp.$$"
sync "$dest.tmp.$$"
echo "$sum" > "$dest.sha256.tmp.$$"
sync "$dest.sha256.tmp.$$"
mv "$dest.sha256.tmp.$$" "$dest.sha256"
mv "$dest.tmp.$$" "$dest"
`;

export const RESTORE_SCRIPT = `#!/bin/sh
# restore-wal.sh <archive dir> <segment name> <target path>   (written by wal-archive.ts)
set -u
dir=$1; name=$2; dst=$3
src="$dir/$name.gz"
[ -f "$src" ] || exit 1
gzip -dc "$src" > "$dst.tmp" || { rm -f "$dst.tmp"; echo "restore-wal: cannot read $src" >&2; exit 126; }
sum=$(sha256sum "$dst.tmp" | cut -d' ' -f1)
if [ "$sum" != "$(cat "$src.sha256" 2>/dev/null)" ]; then
  rm -f "$dst.tmp"
  echo "restore-wal: checksum mismatch for $name: the archive is damaged" >&2
  exit 126
fi
mv "$dst.tmp" "$dst"
`;

export interface ArchiveLayout {
  /** DATA_DIR/backup */
  root: string;
  /** DATA_DIR/backup/wal: <segment>.gz + <segment>.gz.sha256 */
  walDir: string;
  /** DATA_DIR/backup/base/<id>/: base.tar.gz, backup_label, manifest.json (written last) */
  baseDir: string;
  archiveScript: string;
  restoreScript: string;
}

export function archiveLayout(dataDir: string): ArchiveLayout {
  const root = path.join(path.resolve(dataDir), 'backup');
  return {
    root,
    walDir: path.join(root, 'wal'),
    baseDir: path.join(root, 'base'),
    archiveScript: path.join(root, 'archive-wal.sh'),
    restoreScript: path.join(root, 'restore-wal.sh'),
  };
}

/** PostgreSQL runs as `postgres` when we are root (embedded-postgres.ts): it must own the archive. */
async function postgresIds(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const id = async (flag: string) => Number.parseInt((await execFileAsync('id', [flag, 'postgres'])).stdout, 10);
  return { uid: await id('-u'), gid: await id('-g') };
}

/** Quoted for postgresql.conf's shell command; refuses the characters that would need escaping. */
function assertPlainPath(p: string): void {
  if (/['"\\$`\s]/.test(p)) throw new Error(`the backup folder path must not contain quotes, spaces or $: ${p}`);
}

/** Creates the folders and scripts (idempotent). Call before starting PostgreSQL with archiveSettings. */
export async function prepareArchive(layout: ArchiveLayout): Promise<void> {
  assertPlainPath(layout.root);
  await mkdir(layout.walDir, { recursive: true, mode: 0o750 });
  await mkdir(layout.baseDir, { recursive: true, mode: 0o750 });
  await writeFile(layout.archiveScript, ARCHIVE_SCRIPT, { mode: 0o755 });
  await writeFile(layout.restoreScript, RESTORE_SCRIPT, { mode: 0o755 });
  const ids = await postgresIds();
  if (ids) {
    // The parent (DATA_DIR) must be traversable by postgres; startEmbeddedPostgres makes it 0755.
    await chmod(path.dirname(layout.root), 0o755).catch(() => undefined);
    for (const dir of [layout.root, layout.walDir, layout.baseDir]) await chown(dir, ids.uid, ids.gid);
  }
}

/** Server settings for a primary that archives into `layout` (embedded-postgres `settings`). */
export function archiveSettings(layout: ArchiveLayout, archiveTimeoutS = 60): Record<string, string> {
  assertPlainPath(layout.root);
  return {
    wal_level: 'replica',
    archive_mode: 'on',
    archive_command: `/bin/sh ${layout.archiveScript} ${layout.walDir} %p %f`,
    // An idle primary still ships its last writes within this bound (each switch costs a 16 MB segment).
    archive_timeout: String(archiveTimeoutS),
  };
}

/** The restore_command for a cluster recovering from `layout`. */
export function restoreCommand(layout: ArchiveLayout): string {
  assertPlainPath(layout.root);
  return `/bin/sh ${layout.restoreScript} ${layout.walDir} %f %p`;
}

export interface ArchiveStatus {
  archiving: boolean;
  /** Segment being written now. */
  currentWal: string | null;
  lastArchivedWal: string | null;
  lastArchivedAt: Date | null;
  failedCount: number;
  lastFailedWal: string | null;
  lastFailedAt: Date | null;
  /** Finished segments not yet archived (0 when the archive is up to date). */
  lagSegments: number;
  /** Seconds since the last successful archive while segments wait (0 when none wait). */
  lagSeconds: number;
}

/** Segment number within its timeline, from a 24-hex-digit WAL file name (16 MB segments). */
function segmentNumber(name: string): bigint {
  return BigInt(`0x${name.slice(8, 16)}`) * 0x100n + BigInt(`0x${name.slice(16, 24)}`);
}

/**
 * Archive health from pg_stat_archiver, for /metrics and the operator dashboard. Needs a connection to
 * the primary (a standby has no current WAL position to compare with).
 */
export async function archiveStatus(db: Kysely<Database>, now: Date = new Date()): Promise<ArchiveStatus> {
  const { rows } = await sql<{
    archive_mode: string;
    in_recovery: boolean;
    current_wal: string | null;
    last_archived_wal: string | null;
    last_archived_time: Date | null;
    failed_count: string;
    last_failed_wal: string | null;
    last_failed_time: Date | null;
  }>`
    select current_setting('archive_mode') as archive_mode, pg_is_in_recovery() as in_recovery,
      case when pg_is_in_recovery() then null else pg_walfile_name(pg_current_wal_lsn()) end as current_wal,
      last_archived_wal, last_archived_time, failed_count::text, last_failed_wal, last_failed_time
    from pg_stat_archiver`.execute(db);
  const r = rows[0];
  if (!r) throw new Error('pg_stat_archiver returned no row');
  const archived = r.last_archived_wal && /^[0-9A-F]{24}$/.test(r.last_archived_wal) ? r.last_archived_wal : null;
  let lagSegments = 0;
  if (r.current_wal && archived) {
    lagSegments = Math.max(0, Number(segmentNumber(r.current_wal) - segmentNumber(archived)) - 1);
  } else if (r.current_wal && r.archive_mode !== 'off') {
    // Nothing archived yet: every finished segment since the cluster began is waiting.
    lagSegments = Number(segmentNumber(r.current_wal)) - 1;
  }
  const since = r.last_archived_time ?? null;
  return {
    archiving: r.archive_mode !== 'off',
    currentWal: r.current_wal,
    lastArchivedWal: r.last_archived_wal,
    lastArchivedAt: since,
    failedCount: Number(r.failed_count),
    lastFailedWal: r.last_failed_wal,
    lastFailedAt: r.last_failed_time,
    lagSegments,
    lagSeconds: lagSegments > 0 && since ? Math.max(0, (now.getTime() - since.getTime()) / 1000) : 0,
  };
}

/** Forces the current segment out and waits until the archive holds it (before a restore, in drills). */
export async function flushArchive(db: Kysely<Database>, timeoutMs = 30_000): Promise<string> {
  const { rows } = await sql<{ wal: string }>`select pg_walfile_name(pg_switch_wal()) as wal`.execute(db);
  const wal = rows[0]?.wal;
  if (!wal) throw new Error('pg_switch_wal returned nothing');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await archiveStatus(db);
    if (status.lastArchivedWal && status.lastArchivedWal >= wal) return wal;
    if (Date.now() > deadline) {
      throw new Error(`WAL ${wal} not archived within ${timeoutMs} ms (last archived ${status.lastArchivedWal})`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
