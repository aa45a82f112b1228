import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';

/**
 * The S3 shipper's last run in db_archive_shipping (migration 0121), for the operator dashboard: the
 * shipper runs in the process of the embedded primary, the dashboard in any API instance.
 */
export interface ShippingRecord {
  lagSegments: number;
  lastSuccessAt: Date | null;
  failedRuns: number;
  lastError: string | null;
  updatedAt: Date;
}

/** After a run: its lag, and either the success time or the failure (counted, its message kept short). */
export async function recordShipping(
  db: Kysely<Database>,
  run: { at: Date; lagSegments: number; error?: string | undefined },
): Promise<void> {
  const ok = run.error === undefined;
  const error = ok ? null : (run.error ?? '').slice(0, 500);
  await sql`insert into db_archive_shipping (id, lag_segments, last_success_at, failed_runs, last_error, updated_at)
    values (1, ${run.lagSegments}, ${ok ? run.at : null}, ${ok ? 0 : 1}, ${error}, ${run.at})
    on conflict (id) do update set
      lag_segments = excluded.lag_segments,
      last_success_at = coalesce(excluded.last_success_at, db_archive_shipping.last_success_at),
      failed_runs = db_archive_shipping.failed_runs + excluded.failed_runs,
      last_error = case when ${ok} then db_archive_shipping.last_error else excluded.last_error end,
      updated_at = excluded.updated_at`.execute(db);
}

/** The last recorded run, or null when S3 shipping never ran (not configured). */
export async function readShipping(db: Kysely<Database>): Promise<ShippingRecord | null> {
  const { rows } = await sql<{
    lag_segments: number;
    last_success_at: Date | null;
    failed_runs: number;
    last_error: string | null;
    updated_at: Date;
  }>`select lag_segments, last_success_at, failed_runs, last_error, updated_at
    from db_archive_shipping where id = 1`.execute(db);
  const r = rows[0];
  if (!r) return null;
  return {
    lagSegments: r.lag_segments,
    lastSuccessAt: r.last_success_at,
    failedRuns: r.failed_runs,
    lastError: r.last_error,
    updatedAt: r.updated_at,
  };
}
