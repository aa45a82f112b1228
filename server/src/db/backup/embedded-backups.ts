import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Registry } from 'prom-client';
import type { S3Options } from '../../modules/uploads/s3-store.ts';
import type { Database } from '../schema.ts';
import { registerArchiveMetrics } from './archive-metrics.ts';
import { isUnadoptedRestore } from './restored-marker.ts';
import { SHIPPED_MARKER, s3ArchiveOf } from './s3-archive.ts';
import { startS3Shipping } from './s3-archive-schedule.ts';
import { DEFAULT_BACKUP_INTERVAL_MS, startBackupSchedule } from './schedule.ts';
import { type ArchiveLayout, archiveLayout, archiveSettings, prepareArchive } from './wal-archive.ts';

/**
 * Continuous archiving and the base-backup schedule for the embedded PostgreSQL of `npm start`
 * (main.ts calls the two functions below). Environment:
 *   WAL_ARCHIVE=off               no archiving (on by default)
 *   BACKUP_INTERVAL_HOURS=24      a base backup when the last finished one is older than this
 *                                 (the schedule runs when NODE_ENV=production or this is set)
 *   BACKUP_KEEP=7                 complete bases kept, with the WAL they need
 *   WAL_ARCHIVE_TIMEOUT_S=60      an idle primary still ships its last writes within this bound
 *   (S3_* set, as for uploads)    the archive is copied to the bucket under BACKUP_S3_PREFIX (backup/)
 *                                 every BACKUP_S3_INTERVAL_S (30); BACKUP_S3=off keeps it local only
 */
export interface EmbeddedArchive {
  layout: ArchiveLayout;
  settings: Record<string, string>;
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got ${raw})`);
  return value;
}

/** Folders, scripts and server settings; undefined when WAL_ARCHIVE=off. Call before starting PostgreSQL. */
export async function prepareEmbeddedArchive(
  dataDir: string,
  env: NodeJS.ProcessEnv,
): Promise<EmbeddedArchive | undefined> {
  if (env.WAL_ARCHIVE?.trim() === 'off') return undefined;
  const layout = archiveLayout(dataDir);
  await prepareArchive(layout);
  return { layout, settings: archiveSettings(layout, positiveNumber(env, 'WAL_ARCHIVE_TIMEOUT_S', 60)) };
}

/** /metrics gauges and the daily base backup (due-ness read from db_base_backups, migration 0102). */
export function startEmbeddedBackups(options: {
  archive: EmbeddedArchive;
  db: Kysely<Database>;
  adminUrl: string;
  clusterDir: string;
  registry: Registry;
  env: NodeJS.ProcessEnv;
  /** The uploads' S3 settings: the archive is copied there too (s3-archive.ts). */
  s3?: S3Options | undefined;
  log: (level: 'info' | 'error', msg: string) => void;
}): { stop(): void } {
  registerArchiveMetrics(options.registry, options.db);
  const dataDir = path.dirname(options.archive.layout.root);
  const restored = isUnadoptedRestore(dataDir);
  if (restored && options.s3)
    options.log(
      'error',
      `S3 archive: ${dataDir} was made by a restore and ships nothing to the bucket until it is adopted (npm run ops -- backup adopt)`,
    );
  const s3 = restored ? undefined : s3ArchiveOf(options.s3, options.env, { dataDir, createKey: true });
  // Shipping off: retention no longer waits for the bucket (base-backup.ts reads this marker).
  if (!s3) rmSync(path.join(options.archive.layout.root, SHIPPED_MARKER), { force: true });
  const shipping = s3
    ? startS3Shipping({
        layout: options.archive.layout,
        s3,
        registry: options.registry,
        db: options.db,
        intervalMs: positiveNumber(options.env, 'BACKUP_S3_INTERVAL_S', 30) * 1000,
        log: options.log,
      })
    : undefined;
  const schedule = startBaseBackups(options);
  return {
    stop() {
      shipping?.stop();
      schedule.stop();
    },
  };
}

function startBaseBackups(options: Parameters<typeof startEmbeddedBackups>[0]): { stop(): void } {
  // Development and test servers (a fresh DATA_DIR per e2e run) would tar their cluster 30 s after every
  // start: the schedule runs in production, or anywhere BACKUP_INTERVAL_HOURS is set explicitly.
  if (options.env.NODE_ENV !== 'production' && !options.env.BACKUP_INTERVAL_HOURS?.trim()) return { stop() {} };
  const hours = positiveNumber(options.env, 'BACKUP_INTERVAL_HOURS', DEFAULT_BACKUP_INTERVAL_MS / 3_600_000);
  return startBackupSchedule(
    {
      db: options.db,
      adminUrl: options.adminUrl,
      dataDir: options.clusterDir,
      layout: options.archive.layout,
      keep: Math.trunc(positiveNumber(options.env, 'BACKUP_KEEP', 7)),
    },
    { intervalMs: hours * 3_600_000, log: options.log },
  );
}
