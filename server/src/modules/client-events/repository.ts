import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { assert } from '../ledger/model.ts';
import type { ClientEvent } from './schemas.ts';

/** Reports are counted per bucket of this many seconds (the canary watch reads whole buckets). */
export const BUCKET_S = 300;
/** Buckets older than this are deleted by the canary watch (clientEventsRetention). */
export const RETENTION_DAYS = 14;

/**
 * Adds one request's reports to their buckets: identical events are summed first, then one upsert
 * adds each combination's count to its row (bucket, remote, version, kind, code). The table grows
 * with distinct combinations, never with the number of events.
 */
export async function recordClientEvents(db: Kysely<Database>, events: ClientEvent[]): Promise<void> {
  const counts = new Map<string, { event: ClientEvent; n: number }>();
  for (const event of events) {
    const code = event.kind === 'failure' ? (event.code ?? 'UNKNOWN') : '';
    const key = `${event.remote}\0${event.version}\0${event.kind}\0${code}`;
    const seen = counts.get(key);
    if (seen) seen.n += 1;
    else counts.set(key, { event: { ...event, code }, n: 1 });
  }
  if (counts.size === 0) return;
  const rows = [...counts.values()];
  // Sorted so concurrent upserts take the row locks in one order (no deadlock between two requests).
  rows.sort((a, b) =>
    (a.event.remote + a.event.version + a.event.kind + a.event.code).localeCompare(
      b.event.remote + b.event.version + b.event.kind + b.event.code,
    ),
  );
  await sql`
    insert into client_event_counts as c (bucket_start, remote, version, kind, error_code, events)
    select to_timestamp(floor(extract(epoch from now()) / ${BUCKET_S}) * ${BUCKET_S}), r.remote, r.version, r.kind, r.code, r.n
    from unnest(${rows.map((r) => r.event.remote)}::text[], ${rows.map((r) => r.event.version)}::text[],
                ${rows.map((r) => r.event.kind)}::text[], ${rows.map((r) => r.event.code ?? '')}::text[],
                ${rows.map((r) => r.n)}::bigint[]) r(remote, version, kind, code, n)
    on conflict (remote, version, bucket_start, kind, error_code) do update set events = c.events + excluded.events`.execute(
    db,
  );
}

export interface VersionCounts {
  version: string;
  loads: number;
  failures: number;
  /** Failures by the runtime's error code. */
  codes: Record<string, number>;
}

/** Loads and failures of each version of `remote` in buckets that started at or after `since`. */
export async function countsByVersion(db: Kysely<Database>, remote: string, since: Date): Promise<VersionCounts[]> {
  assert(remote.length > 0, 'a remote');
  const rows = await db
    .selectFrom('client_event_counts')
    .select(['version', 'kind', 'error_code', (eb) => eb.fn.sum<string>('events').as('events')])
    .where('remote', '=', remote)
    .where('bucket_start', '>=', new Date(Math.floor(since.getTime() / (BUCKET_S * 1000)) * BUCKET_S * 1000))
    .groupBy(['version', 'kind', 'error_code'])
    .execute();
  const byVersion = new Map<string, VersionCounts>();
  for (const row of rows) {
    const v = byVersion.get(row.version) ?? { version: row.version, loads: 0, failures: 0, codes: {} };
    const n = Number(row.events);
    if (row.kind === 'load') v.loads += n;
    else {
      v.failures += n;
      v.codes[row.error_code] = (v.codes[row.error_code] ?? 0) + n;
    }
    byVersion.set(row.version, v);
  }
  return [...byVersion.values()].sort((a, b) => a.version.localeCompare(b.version));
}

/** Deletes buckets past retention; returns how many rows went. */
export async function purgeOldClientEvents(db: Kysely<Database>): Promise<number> {
  const result = await db
    .deleteFrom('client_event_counts')
    .where('bucket_start', '<', sql<Date>`now() - ${RETENTION_DAYS} * interval '1 day'`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
