import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { createBatchQueue } from '../modules/ledger/batch-queue.ts';
import { assert } from '../modules/ledger/model.ts';

/**
 * The global rate limit's store for @fastify/rate-limit, in PostgreSQL (table rate_limit_hits,
 * migration 0032), so N API instances count one client together. Increments travel in batches (one
 * statement per event-loop turn, batch-queue.ts): the keys of a batch are counted, each key's row
 * gets its count added in one upsert, and each request learns its own position in its key's count.
 * A fixed window per key: the first hit after the window ended starts a new one.
 */
interface Hit {
  key: string;
  windowMs: number;
}
interface Counted {
  current: number;
  ttl: number;
}

/** Keys longer than this are hashed down by the caller's key generator; kept as a limit here. */
const KEY_MAX = 200;
/** Rows of windows that ended this long ago are deleted, by whichever instance notices first. */
const PURGE_EVERY_BATCHES = 500;

export function createRateLimitCounter(db: Kysely<Database>) {
  let batches = 0;
  const queue = createBatchQueue<Hit, Counted>({
    batchMax: 1000,
    inFlightMax: 2,
    queueMax: 50_000,
    busy: () => new Error('rate limit counter queue full'),
    async apply(hits) {
      const windowMs = hits[0]?.windowMs ?? 60_000;
      assert(
        hits.every((h) => h.windowMs === windowMs),
        'one window for the global limit',
      );
      const countOf = new Map<string, number>();
      for (const h of hits) countOf.set(h.key, (countOf.get(h.key) ?? 0) + 1);
      const keys = [...countOf.keys()];
      const counts = [...countOf.values()];
      const { rows } = await sql<{ key: string; hits: number; window_start_ms: string; now_ms: string }>`
        with now as (select (extract(epoch from clock_timestamp()) * 1000)::bigint as ms)
        insert into rate_limit_hits as r (key, window_start_ms, hits)
        select k.key, now.ms, k.n from unnest(${keys}::text[], ${counts}::integer[]) k(key, n), now
        on conflict (key) do update set
          hits = case when r.window_start_ms + ${windowMs} <= excluded.window_start_ms then excluded.hits
                      else r.hits + excluded.hits end,
          window_start_ms = case when r.window_start_ms + ${windowMs} <= excluded.window_start_ms
                                 then excluded.window_start_ms else r.window_start_ms end
        returning r.key, r.hits, r.window_start_ms::text, (select ms from now)::text as now_ms`.execute(db);
      batches += 1;
      if (batches % PURGE_EVERY_BATCHES === 0) {
        void sql`delete from rate_limit_hits
          where window_start_ms + ${windowMs} < (extract(epoch from clock_timestamp()) * 1000)::bigint - 3600000`
          .execute(db)
          .catch(() => undefined);
      }
      const byKey = new Map(rows.map((r) => [r.key, r]));
      const seen = new Map<string, number>();
      return hits.map((h) => {
        const row = byKey.get(h.key);
        assert(row !== undefined, 'every key counted');
        const n = countOf.get(h.key) ?? 0;
        const position = (seen.get(h.key) ?? 0) + 1;
        seen.set(h.key, position);
        const ttl = Math.max(0, Number(row.window_start_ms) + windowMs - Number(row.now_ms));
        return { ok: { current: row.hits - n + position, ttl } };
      });
    },
  });
  return {
    incr: (key: string, windowMs: number) => {
      assert(key.length > 0, 'a rate limit key');
      return queue.submit({ key: key.slice(0, KEY_MAX), windowMs });
    },
  };
}

export type RateLimitCounter = ReturnType<typeof createRateLimitCounter>;

/** The store class @fastify/rate-limit instantiates (`store: pgRateLimitStore(counter)`). */
export function pgRateLimitStore(counter: RateLimitCounter, prefix = '') {
  return class PgRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: Counted) => void, timeWindow: number): void {
      counter.incr(`${prefix}${key}`, timeWindow).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: { method?: string | string[]; url?: string }) {
      const Child = pgRateLimitStore(counter, `${prefix}${String(routeOptions.method)} ${routeOptions.url ?? ''}|`);
      return new Child();
    }
  };
}
