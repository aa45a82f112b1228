import path from 'node:path';
import { formatReport } from '../../modules/ledger/reconcile.ts';
import type { S3Options } from '../../modules/uploads/s3-store.ts';
import { createDb } from '../create-db.ts';
import { startEmbeddedPostgres } from '../embedded-postgres.ts';
import { failover } from '../replication/standby.ts';
import { listBaseBackups } from './base-backup.ts';
import { prepareEmbeddedArchive } from './embedded-backups.ts';
import { parseRestoreTarget, RestoreError, restore } from './restore.ts';
import { adoptRestored } from './restored-marker.ts';
import { s3ArchiveOf } from './s3-archive.ts';
import { fetchArchiveFromS3 } from './s3-archive-fetch.ts';
import { runRecordedBackup } from './schedule.ts';
import { type ArchiveLayout, archiveLayout, archiveStatus, flushArchive, prepareArchive } from './wal-archive.ts';

/**
 * `npm run ops -- backup base | status` and `npm run ops -- restore --to <time|latest> --into <dir>`
 * for the embedded cluster in DATA_DIR (an external DATABASE_URL server is backed up by its own tools:
 * docs/production-layout.md).
 */
export interface BackupCommandContext {
  dataDir: string;
  /** The cluster's folder (DATA_DIR/pg or its relocated copy). */
  clusterDir: string;
  /** Superuser URL of the running cluster for `database`, if one runs. */
  runningUrl(database: string): Promise<string | undefined>;
  /** The uploads' S3 settings (S3_*): `restore --from s3` fetches the archive from there. */
  s3?: S3Options | undefined;
  out(line: string): void;
  err(line: string): void;
}

const BACKUP_USAGE = 'usage: npm run ops -- backup base [--keep N] | backup status | backup adopt';
const RESTORE_USAGE =
  'usage: npm run ops -- restore --to <ISO time with offset|latest> --into <new folder> [--from folder|s3]';

function refuse(ctx: BackupCommandContext, line: string, code: number): number {
  ctx.err(line);
  return code;
}

function flag(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

/** The running cluster, or one started with archiving for the duration of the command. */
async function withPrimary<T>(ctx: BackupCommandContext, fn: (adminUrl: string, walletUrl: string) => Promise<T>) {
  const running = await ctx.runningUrl('wallet');
  if (running) return fn(running.replace(/\/wallet$/, '/postgres'), running);
  const archive = await prepareEmbeddedArchive(ctx.dataDir, { ...process.env, WAL_ARCHIVE: 'on' });
  const pg = await startEmbeddedPostgres({ dir: ctx.dataDir, ...(archive ? { settings: archive.settings } : {}) });
  try {
    return await fn(pg.url(), pg.url('wallet'));
  } finally {
    await pg.stop();
  }
}

export async function runBackupCommand(ctx: BackupCommandContext, argv: string[]): Promise<number> {
  const layout = archiveLayout(ctx.dataDir);
  const [sub] = argv;
  if (sub === 'adopt') {
    const adopted = await adoptRestored(ctx.dataDir);
    ctx.out(adopted ? `${ctx.dataDir} adopted: it ships to the bucket from its next start` : 'nothing to adopt');
    return 0;
  }
  if (sub !== 'base' && sub !== 'status') return refuse(ctx, BACKUP_USAGE, 2);
  return withPrimary(ctx, async (adminUrl, walletUrl) => {
    const db = createDb(walletUrl, { max: 2 });
    try {
      if (sub === 'status') {
        const s = await archiveStatus(db);
        ctx.out(
          `archiving ${s.archiving ? 'on' : 'OFF'}; current WAL ${s.currentWal}; last archived ${s.lastArchivedWal} at ${s.lastArchivedAt?.toISOString() ?? 'never'}`,
        );
        ctx.out(
          `lag ${s.lagSegments} segment(s), ${Math.round(s.lagSeconds)} s; failures ${s.failedCount}${s.lastFailedWal ? ` (last ${s.lastFailedWal} at ${s.lastFailedAt?.toISOString()})` : ''}`,
        );
        for (const b of await listBaseBackups(layout))
          ctx.out(`base ${b.id} consistent at ${b.consistentAt}, WAL from ${b.startWal}, ${b.tarBytes} bytes`);
        return s.lagSegments > 0 || !s.archiving ? 1 : 0;
      }
      const keep = Number(flag(argv, '--keep') ?? process.env.BACKUP_KEEP ?? 7);
      if (!Number.isInteger(keep) || keep < 1) return refuse(ctx, '--keep must be a whole number >= 1', 2);
      const result = await runRecordedBackup({ db, adminUrl, dataDir: ctx.clusterDir, layout, keep });
      if (result === 'busy') return refuse(ctx, 'another base backup is running', 1);
      ctx.out(
        `base backup ${result.id}: consistent at ${result.consistentAt}, WAL from ${result.startWal}, ${result.tarBytes} bytes`,
      );
      return 0;
    } finally {
      await db.destroy();
    }
  });
}

/** The bucket's base and WAL into `<into>/backup` (a DATA_DIR-style folder: its own archive later). */
async function fetchFromS3(
  ctx: BackupCommandContext,
  s3: NonNullable<ReturnType<typeof s3ArchiveOf>>,
  into: string,
  target: ReturnType<typeof parseRestoreTarget>,
): Promise<ArchiveLayout> {
  const layout = archiveLayout(into);
  await prepareArchive(layout);
  const fetched = await fetchArchiveFromS3(s3, layout, target, (warning) => ctx.out(`warning: ${warning}`));
  ctx.out(`fetched base ${fetched.base.id} and ${fetched.segments} WAL segment(s) from s3://${s3.bucket}/${s3.prefix}`);
  return layout;
}

export async function runRestoreCommand(ctx: BackupCommandContext, argv: string[]): Promise<number> {
  const to = flag(argv, '--to');
  const into = flag(argv, '--into');
  const from = flag(argv, '--from') ?? 'folder';
  if (!to || !into || (from !== 'folder' && from !== 's3')) return refuse(ctx, RESTORE_USAGE, 2);
  try {
    const target = parseRestoreTarget(to);
    let layout = archiveLayout(ctx.dataDir);
    if (from === 's3') {
      const s3 = s3ArchiveOf(ctx.s3, process.env, { dataDir: ctx.dataDir, createKey: false });
      if (!s3) return refuse(ctx, 'restore --from s3: no S3 storage configured (S3_ENDPOINT, ... as for uploads)', 2);
      layout = await fetchFromS3(ctx, s3, into, target);
    }
    // A running source ships its current segment first, so "latest" and recent times are in the archive.
    const running = await ctx.runningUrl('wallet');
    if (running) {
      const db = createDb(running, { max: 1 });
      await flushArchive(db).finally(() => db.destroy());
    }
    const result = await restore({
      layout,
      target,
      into,
      passwordFile: path.join(ctx.dataDir, 'pg-password'),
      log: ctx.out,
    });
    for (const line of formatReport(result.report)) ctx.out(line);
    if (!result.report.ok) return refuse(ctx, 'the restored ledger does NOT reconcile: do not use it', 1);
    ctx.out(
      `restored into ${path.resolve(into)} (base ${result.base.id}); start it with DATA_DIR=${path.resolve(into)} npm start`,
    );
    ctx.out('restored');
    return 0;
  } catch (err) {
    if (err instanceof RestoreError) return refuse(ctx, err.message, 1);
    throw err;
  }
}

const FAILOVER_USAGE =
  'usage: npm run ops -- failover --standby-url <superuser URL of the standby> [--fence <old primary DATA_DIR>] --reason "<text>"';

/**
 * Promotes the standby; with --fence, first marks the old primary's cluster folder so that our start
 * path refuses it (rebuild it as a standby of the new primary instead). Kill or isolate the old
 * primary's host BEFORE running this if it may still be alive: docs/production-layout.md.
 */
export async function runFailoverCommand(ctx: BackupCommandContext, argv: string[]): Promise<number> {
  const standbyAdminUrl = flag(argv, '--standby-url');
  const reason = flag(argv, '--reason');
  const fence = flag(argv, '--fence');
  if (!standbyAdminUrl || !reason) return refuse(ctx, FAILOVER_USAGE, 2);
  const oldPrimaryDataDir = fence ? path.join(path.resolve(fence), 'pg') : undefined;
  await failover({ standbyAdminUrl, reason, ...(oldPrimaryDataDir ? { oldPrimaryDataDir } : {}) });
  ctx.out(`promoted${oldPrimaryDataDir ? `; ${oldPrimaryDataDir} fenced` : ''}`);
  return 0;
}
