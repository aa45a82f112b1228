import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { createBatchQueue } from '../modules/ledger/batch-queue.ts';
import { assert } from '../modules/ledger/model.ts';

/**
 * The global rate limit's store for @fastify/rate-limit, in PostgreSQL (table rate_limit_hits,
 * migration 0032), so N API instances count one client together. Increments travel in batches (one
 * statement per event-loop turn, batch-queue.ts): the keys of a batch are counted, each key's row
 * gets its count added in one upsert, and each request learns its own position in its key's count.
 * A fixed window per key: the first hit after the window ended starts a new one. A client far below
 * its limit is not kept waiting for that round trip (see incr).
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
    // One batch at a time: an instance's hits reach the database in the order they came, so a hit
    // decided without waiting (below) is always counted before this instance's next waiting hit.
    // With two in flight a later batch could commit first on another connection, and a client's
    // sequential requests spread over instances could pass the limit.
    inFlightMax: 1,
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
  // What this instance knows of each key: the count the database last returned, and the hits sent
  // since and not yet answered. Well below the limit (a quarter of it) a request is decided on that at
  // once, without waiting for the database (the hit is still counted there); nearer the limit it waits
  // for the database's own count. On one instance the limit is exact. A burst of one client split over
  // N instances before any answer can pass up to (N - 1) x max / 4 more: the price of not adding a
  // round trip to every request (the sign-in, code and fund-password throttles stay exact).
  const known = new Map<string, { hits: number; windowEndMs: number }>();
  const unanswered = new Map<string, number>();
  const KNOWN_MAX = 100_000;

  function estimate(key: string, windowMs: number): Counted {
    const now = Date.now();
    const k = known.get(key);
    const valid = k !== undefined && k.windowEndMs > now;
    return {
      current: (valid ? k.hits : 0) + (unanswered.get(key) ?? 0),
      ttl: valid ? k.windowEndMs - now : windowMs,
    };
  }

  /** One hit of `key` is answered (or lost): no longer pending. */
  function forget(key: string): void {
    const left = (unanswered.get(key) ?? 1) - 1;
    if (left > 0) unanswered.set(key, left);
    else unanswered.delete(key);
  }

  function answered(key: string, result: Counted): void {
    forget(key);
    const previous = known.get(key);
    const windowEndMs = Date.now() + result.ttl;
    // Answers can arrive out of order: keep the highest count of the newest window.
    if (!previous || previous.windowEndMs < windowEndMs - 1000 || previous.hits < result.current) {
      if (!previous && known.size >= KNOWN_MAX) known.clear();
      known.set(key, { hits: result.current, windowEndMs });
    }
  }

  return {
    incr(key: string, windowMs: number, max: number): Counted | Promise<Counted> {
      assert(key.length > 0, 'a rate limit key');
      const k = key.slice(0, KEY_MAX);
      unanswered.set(k, (unanswered.get(k) ?? 0) + 1);
      const counted = queue.submit({ key: k, windowMs }).then(
        (result) => {
          answered(k, result);
          return result;
        },
        (error: unknown) => {
          forget(k);
          throw error;
        },
      );
      const guess = estimate(k, windowMs);
      if (guess.current * 4 <= max) {
        counted.catch(() => undefined); // decided already; a lost increment is only a softer limit
        return guess;
      }
      return counted;
    },
  };
}

export type RateLimitCounter = ReturnType<typeof createRateLimitCounter>;

/** The store class @fastify/rate-limit instantiates (`store: pgRateLimitStore(counter)`). */
export function pgRateLimitStore(counter: RateLimitCounter, prefix = '') {
  return class PgRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: Counted) => void,
      timeWindow: number,
      max: number,
    ): void {
      Promise.resolve(counter.incr(`${prefix}${key}`, timeWindow, max)).then(
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
