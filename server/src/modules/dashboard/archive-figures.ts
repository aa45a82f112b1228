import { type Kysely, sql } from 'kysely';
import { readShipping, type ShippingRecord } from '../../db/backup/s3-shipping-record.ts';
import { type ArchiveStatus, archiveStatus } from '../../db/backup/wal-archive.ts';
import type { Database } from '../../db/schema.ts';

/**
 * Issue 34: the WAL archive's health on the money dashboard, beside the pg_archive_* gauges of /metrics.
 * The figures are PostgreSQL's (pg_stat_archiver, db_base_backups, db_archive_shipping), so every API
 * instance answers the same.
 *
 * The warning bound: segments have waited for the archive (folder, or bucket when S3 is configured)
 * more than ARCHIVE_WARN_AFTER_S since its last success. With the default archive_timeout of 60 s a
 * healthy primary archives a waiting segment within a minute or two; an idle primary has nothing
 * waiting and so never warns, however old its last segment. A base backup older than
 * BASE_BACKUP_WARN_AFTER_H (two daily intervals) also warns: restores would replay a long WAL tail.
 */
export const ARCHIVE_WARN_AFTER_S = 5 * 60;
export const BASE_BACKUP_WARN_AFTER_H = 48;

export type ArchiveWarning = 'archive_behind' | 'archive_failing' | 's3_behind' | 'base_backup_old';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const ageSeconds = (at: Date, d: Date | null | undefined) =>
  d ? Math.max(0, Math.floor((at.getTime() - d.getTime()) / 1000)) : null;

async function lastBaseBackup(db: Kysely<Database>) {
  const { rows } = await sql<{ finished_at: Date; backup_id: string }>`
    select finished_at, backup_id from db_base_backups where state = 'done'
    order by finished_at desc limit 1`.execute(db);
  return rows[0] ?? null;
}

interface ArchiveInputs {
  status: ArchiveStatus | null;
  base: { finished_at: Date; backup_id: string } | null;
  shipping: ShippingRecord | null;
}

/** The warnings of the archive card (pure: the bounds above against the figures at `at`). */
export function archiveWarnings({ status, base, shipping }: ArchiveInputs, at: Date): ArchiveWarning[] {
  const warnings: ArchiveWarning[] = [];
  if (status?.archiving && status.lagSegments > 0) {
    const waited = ageSeconds(at, status.lastArchivedAt);
    if (waited === null || waited > ARCHIVE_WARN_AFTER_S) warnings.push('archive_behind');
  }
  if (status?.lastFailedAt && (!status.lastArchivedAt || status.lastFailedAt > status.lastArchivedAt)) {
    warnings.push('archive_failing');
  }
  if (shipping && shipping.lagSegments > 0) {
    const waited = ageSeconds(at, shipping.lastSuccessAt);
    if (waited === null || waited > ARCHIVE_WARN_AFTER_S) warnings.push('s3_behind');
  }
  const baseAge = ageSeconds(at, base?.finished_at);
  if (status?.archiving && (baseAge === null || baseAge > BASE_BACKUP_WARN_AFTER_H * 3600)) {
    warnings.push('base_backup_old');
  }
  return warnings;
}

function stateOf(status: ArchiveStatus | null, warnings: ArchiveWarning[]) {
  if (warnings.length > 0) return 'warning' as const;
  if (status === null) return 'unknown' as const;
  return status.archiving ? ('ok' as const) : ('off' as const);
}

/** The archive card: null figures where PostgreSQL cannot say (a standby, archiving off, never shipped). */
export async function archiveFigures(db: Kysely<Database>, at: Date) {
  // A standby or a role without pg_stat_archiver access still serves the rest of the dashboard.
  const status = await archiveStatus(db, at).catch(() => null);
  const base = await lastBaseBackup(db);
  const shipping = await readShipping(db);
  const warnings = archiveWarnings({ status, base, shipping }, at);
  return {
    state: stateOf(status, warnings),
    warnings,
    warnAfterSeconds: ARCHIVE_WARN_AFTER_S,
    baseBackupWarnAfterHours: BASE_BACKUP_WARN_AFTER_H,
    lastArchivedWal: status?.lastArchivedWal ?? null,
    lastArchivedAt: iso(status?.lastArchivedAt),
    lastArchivedAgeSeconds: ageSeconds(at, status?.lastArchivedAt),
    waitingSegments: status?.lagSegments ?? null,
    failedCount: status?.failedCount ?? null,
    lastFailedAt: iso(status?.lastFailedAt),
    lastBaseBackup: base
      ? { id: base.backup_id, finishedAt: base.finished_at.toISOString(), ageSeconds: ageSeconds(at, base.finished_at) }
      : null,
    s3: shipping
      ? {
          waitingSegments: shipping.lagSegments,
          lastSuccessAt: iso(shipping.lastSuccessAt),
          lagSeconds: shipping.lagSegments > 0 ? ageSeconds(at, shipping.lastSuccessAt) : 0,
          failedRuns: shipping.failedRuns,
          lastError: shipping.lastError,
          updatedAt: shipping.updatedAt.toISOString(),
        }
      : null,
  };
}
