import type { Kysely } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../schema.ts';
import { type ArchiveStatus, archiveStatus } from './wal-archive.ts';

/**
 * WAL archive health in /metrics, read from pg_stat_archiver at scrape time (PostgreSQL is the source,
 * so every API instance reports the same figures). Alert on pg_archive_lag_segments > 0 for minutes,
 * or on pg_archive_failed_total rising: the archive is behind (disk full, folder unwritable, S3 down)
 * and a restore would lose what pg_wal alone still holds.
 */
export function registerArchiveMetrics(registry: Registry, db: Kysely<Database>): void {
  // One query per scrape for the four gauges (each collect() would otherwise run its own).
  let cached: { at: number; status: Promise<ArchiveStatus | null> } | undefined;
  const read = () => {
    if (!cached || Date.now() - cached.at > 1_000) {
      cached = { at: Date.now(), status: archiveStatus(db).catch(() => null) };
    }
    return cached.status;
  };
  const gauge = (name: string, help: string, pick: (s: ArchiveStatus) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const status = await read();
        if (status) this.set(pick(status));
      },
    });
  gauge('pg_archive_lag_segments', 'Finished WAL segments not yet archived', (s) => s.lagSegments);
  gauge('pg_archive_lag_seconds', 'Seconds since the last archived segment while segments wait', (s) => s.lagSeconds);
  gauge('pg_archive_failed_total', 'Failed archive attempts since the statistics were reset', (s) => s.failedCount);
  gauge('pg_archive_last_success_timestamp_seconds', 'When the last segment was archived (Unix time)', (s) =>
    s.lastArchivedAt ? s.lastArchivedAt.getTime() / 1000 : 0,
  );
}
