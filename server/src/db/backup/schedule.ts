import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';
import { applyRetention, type BaseBackupManifest, takeBaseBackup } from './base-backup.ts';
import type { ArchiveLayout } from './wal-archive.ts';

/**
 * The base-backup schedule. Whether a backup is due is read from db_base_backups (migration 0102), so
 * several API instances, restarts and a manual `npm run ops -- backup base` all agree; the timer in a
 * process only decides how often to ask. One attempt at a time: the partial unique index on 'running'
 * makes a second claimant fail its insert. A process that dies mid-backup leaves a 'running' row whose
 * lease then lapses; the next check marks it failed (its `.partial` folder is removed by retention).
 */

export interface BackupJob {
  db: Kysely<Database>;
  /** Superuser URL of the primary (pg_backup_start needs it). */
  adminUrl: string;
  /** The cluster's data folder (`DATA_DIR/pg`). */
  dataDir: string;
  layout: ArchiveLayout;
  /** Complete bases kept (with the WAL they need). */
  keep: number;
  now?: () => Date;
}

export const DEFAULT_BACKUP_INTERVAL_MS = 24 * 3_600_000;
const LEASE_MS = 2 * 3_600_000;

async function expireLapsedAttempts(db: Kysely<Database>, now: Date): Promise<void> {
  await sql`update db_base_backups set state = 'failed', error = 'lease lapsed: the process died mid-backup'
    where state = 'running' and lease_until < ${now}`.execute(db);
}

/** Takes a base backup now, recorded; 'busy' when another attempt holds the claim. */
export async function runRecordedBackup(job: BackupJob): Promise<BaseBackupManifest | 'busy'> {
  const now = job.now ?? (() => new Date());
  await expireLapsedAttempts(job.db, now());
  let attempt: string;
  try {
    const started = now();
    const { rows } = await sql<{ id: string }>`insert into db_base_backups (state, started_at, lease_until)
      values ('running', ${started}, ${new Date(started.getTime() + LEASE_MS)}) returning id::text`.execute(job.db);
    attempt = rows[0]?.id ?? '';
  } catch (err) {
    if ((err as { code?: string }).code === '23505') return 'busy';
    throw err;
  }
  try {
    const manifest = await takeBaseBackup({ adminUrl: job.adminUrl, dataDir: job.dataDir, layout: job.layout, now });
    await sql`update db_base_backups set state = 'done', finished_at = ${now()}, backup_id = ${manifest.id},
      start_wal = ${manifest.startWal} where id = ${attempt}`.execute(job.db);
    await applyRetention(job.layout, job.keep);
    return manifest;
  } catch (err) {
    const message = String((err as Error).message ?? err).slice(0, 2000);
    await sql`update db_base_backups set state = 'failed', finished_at = ${now()}, error = ${message}
      where id = ${attempt}`
      .execute(job.db)
      .catch(() => undefined);
    throw err;
  }
}

/** A backup when the newest finished one is older than `intervalMs` (or there is none). */
export async function backupIfDue(
  job: BackupJob,
  intervalMs = DEFAULT_BACKUP_INTERVAL_MS,
): Promise<BaseBackupManifest | 'busy' | 'not-due'> {
  const now = job.now ?? (() => new Date());
  const { rows } = await sql<{ last: Date | null }>`
    select max(finished_at) as last from db_base_backups where state = 'done'`.execute(job.db);
  const last = rows[0]?.last;
  if (last && now().getTime() - last.getTime() < intervalMs) return 'not-due';
  return runRecordedBackup(job);
}

/** Asks every `checkEveryMs` whether a backup is due; failures are logged and retried at the next check. */
export function startBackupSchedule(
  job: BackupJob,
  options: { intervalMs?: number; checkEveryMs?: number; log: (level: 'info' | 'error', msg: string) => void },
): { stop(): void } {
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    void backupIfDue(job, options.intervalMs).then(
      (r) => {
        if (typeof r === 'object') options.log('info', `base backup ${r.id} taken (WAL from ${r.startWal})`);
      },
      (err: unknown) => options.log('error', `base backup failed: ${String((err as Error).message ?? err)}`),
    );
  };
  const timer = setInterval(tick, options.checkEveryMs ?? 10 * 60_000);
  timer.unref();
  // First check shortly after start-up, not during it.
  const first = setTimeout(tick, 30_000);
  first.unref();
  return {
    // A backup under way is not awaited: shutdown must stay quick. Its session ends with the pool,
    // PostgreSQL aborts the backup, and the lapsed lease marks the attempt failed later.
    stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
    },
  };
}
