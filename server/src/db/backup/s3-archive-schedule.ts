import type { Kysely } from 'kysely';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Database } from '../schema.ts';
import { type S3ArchiveOptions, shipArchiveToS3 } from './s3-archive.ts';
import { recordShipping } from './s3-shipping-record.ts';
import type { ArchiveLayout } from './wal-archive.ts';

/**
 * Ships the folder archive to the bucket every `intervalMs` (BACKUP_S3_INTERVAL_S, 30 s) from the
 * process that runs the embedded primary, one run at a time. /metrics: `pg_archive_s3_lag_segments`
 * (segments archived to the folder but not yet in the bucket) beside the folder archive's own
 * pg_archive_* gauges, `pg_archive_s3_failed_total`, `pg_archive_s3_last_success_timestamp_seconds`.
 * Alert when the lag stays above 0 for minutes: the host's disk is then the only copy of those segments.
 * With `db`, each run is also recorded in db_archive_shipping (the operator dashboard reads it there).
 */
export function startS3Shipping(options: {
  layout: ArchiveLayout;
  s3: S3ArchiveOptions;
  registry: Registry;
  intervalMs: number;
  db?: Kysely<Database> | undefined;
  log: (level: 'info' | 'error', msg: string) => void;
}): { stop(): void; runOnce(): Promise<void> } {
  const lag = new Gauge({
    name: 'pg_archive_s3_lag_segments',
    help: 'WAL segments in the backup folder not yet copied to the S3 archive',
    registers: [options.registry],
  });
  const failed = new Counter({
    name: 'pg_archive_s3_failed_total',
    help: 'Runs of the S3 archive shipper that failed',
    registers: [options.registry],
  });
  const lastSuccess = new Gauge({
    name: 'pg_archive_s3_last_success_timestamp_seconds',
    help: 'When the S3 archive last held every segment of the backup folder',
    registers: [options.registry],
  });
  let running: Promise<void> | undefined;
  let pending = 0;
  const record = async (error?: string) => {
    if (!options.db) return;
    await recordShipping(options.db, { at: new Date(), lagSegments: pending, error }).catch((err: unknown) =>
      options.log('error', `S3 archive: recording the run failed: ${(err as Error).message}`),
    );
  };
  const runOnce = () => {
    running ??= shipArchiveToS3(options.layout, options.s3, (n) => {
      pending = n;
      lag.set(n);
    })
      .then(
        async (r) => {
          lastSuccess.set(Date.now() / 1000);
          await record();
          if (r.walShipped + r.basesShipped > 0)
            options.log('info', `S3 archive: ${r.walShipped} segment(s), ${r.basesShipped} base backup(s) shipped`);
        },
        async (err: unknown) => {
          failed.inc();
          options.log('error', `S3 archive shipping failed: ${(err as Error).message}`);
          await record(String((err as Error).message ?? err));
        },
      )
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void runOnce(), options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), runOnce };
}
