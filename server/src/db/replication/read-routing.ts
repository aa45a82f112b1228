import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.ts';
import { isMultiHostUrl, PrimaryPool, splitMultiHostUrl } from './multi-host-pool.ts';
import { parseReadUrl, ReadPool } from './read-pool.ts';

/**
 * Read traffic on the replica (issue 34). `db` is a Kysely for lag-tolerant reads that goes to the
 * replica ONLY while a route marked as a replica read runs (http/replica-reads.ts enters the context
 * below); anywhere else, and if the replica is down or behind the caller's own last write, it is the
 * primary. So a service handed this Kysely can never read money state from the replica by accident
 * in a route nobody reviewed: the routes list is tested (replica-routes.test.ts).
 *
 * Read-your-writes: after a write, the caller carries the primary's WAL insert position (a cookie set
 * by the write's response, so any API instance sees it: no process memory). A replica read first asks
 * the replica whether it has replayed past it, on the very connection that will run the read; if not,
 * the read goes to the primary. Chosen over "primary for N seconds after a write" because it is exact:
 * it holds however far the replica lags (even with replay paused), and a caller whose write the
 * replica already has reads the replica at once.
 */
export type ReadSide = 'replica' | 'primary';
export type ReadReason = 'replica' | 'outside-replica-route' | 'replica-behind' | 'replica-unavailable';

interface ReadContext {
  /** The caller's last write position (pg_lsn text), or null: any replay position will do. */
  minLsn: string | null;
}

const context = new AsyncLocalStorage<ReadContext>();

/** `16/B374D848`: what pg_lsn prints; anything else from a client is ignored. */
export const LSN_TEXT = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i;

class RoutingPool implements PostgresPool {
  constructor(
    private readonly primary: PostgresPool,
    private readonly replica: PostgresPool,
    private readonly onRouted: (side: ReadSide, reason: ReadReason) => void,
  ) {}

  private toPrimary(reason: ReadReason): Promise<PostgresPoolClient> {
    this.onRouted('primary', reason);
    return this.primary.connect();
  }

  async connect(): Promise<PostgresPoolClient> {
    const ctx = context.getStore();
    if (!ctx) return this.toPrimary('outside-replica-route');
    let client: PostgresPoolClient;
    try {
      client = await this.replica.connect();
    } catch {
      // A lost replica costs freshness nothing and availability nothing: the primary answers.
      return this.toPrimary('replica-unavailable');
    }
    if (ctx.minLsn !== null) {
      let caughtUp = false;
      let broken: Error | undefined;
      try {
        // A host not in recovery is a primary (prefer-standby found no standby): it has every commit.
        const { rows } = await (client as unknown as pg.PoolClient).query<{ ok: boolean }>(
          'select (not pg_is_in_recovery()) or coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) as ok',
          [ctx.minLsn],
        );
        caughtUp = rows[0]?.ok === true;
      } catch (err) {
        broken = err as Error;
      }
      if (!caughtUp) {
        // A connection whose check failed is destroyed, not pooled again (pg: release(err)).
        (client as unknown as pg.PoolClient).release(broken);
        return this.toPrimary('replica-behind');
      }
    }
    this.onRouted('replica', 'replica');
    return client;
  }

  async end(): Promise<void> {
    await Promise.all([this.primary.end(), this.replica.end()]);
  }
}

export interface ReadRouting {
  /** Kysely for lag-tolerant reads (see above). Never for a read that decides money. */
  db: Kysely<Database>;
  /** Runs `fn` (a replica-read route's handling) with the caller's last write position. */
  run<T>(minLsn: string | null, fn: () => T): T;
  /** The primary's WAL insert position now: every commit acknowledged before this call is at or before it. */
  primaryLsn(): Promise<string>;
  /** Ends both pools (the app's own `db` is not touched). */
  destroy(): Promise<void>;
}

export interface ReadRoutingOptions {
  /** DATABASE_URL (the app's role): the primary, single or multi-host. */
  primaryUrl: string;
  /** DATABASE_READ_URL: one or several hosts, target_session_attrs=prefer-standby (default) or any. */
  readUrl: string;
  /** Connections per pool (the primary's fallback pool and the replica's); default 5. */
  max?: number;
  /** Each checkout's side and why (metrics, tests). */
  onRouted?: (side: ReadSide, reason: ReadReason) => void;
  logger?: { error(obj: unknown, msg?: string): void };
}

function primaryPoolOf(url: string, max: number, logger: ReadRoutingOptions['logger']): PostgresPool {
  if (isMultiHostUrl(url)) return new PrimaryPool(splitMultiHostUrl(url), { max, ...(logger ? { logger } : {}) });
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 });
  pool.on('error', (err) => {
    if ((err as { code?: string }).code !== '57P01') logger?.error({ err }, 'idle PostgreSQL client error (reads)');
  });
  return pool;
}

export function createReadRouting(options: ReadRoutingOptions): ReadRouting {
  const max = options.max ?? 5;
  const primary = primaryPoolOf(options.primaryUrl, max, options.logger);
  const replica = new ReadPool(parseReadUrl(options.readUrl), { max });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new RoutingPool(primary, replica, options.onRouted ?? (() => undefined)) }),
  });
  return {
    db,
    run: (minLsn, fn) => context.run({ minLsn: minLsn !== null && LSN_TEXT.test(minLsn) ? minLsn : null }, fn),
    async primaryLsn() {
      const client = (await primary.connect()) as unknown as pg.PoolClient;
      try {
        const { rows } = await client.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn');
        const lsn = rows[0]?.lsn ?? '';
        if (!LSN_TEXT.test(lsn)) throw new Error(`unexpected WAL position ${lsn}`);
        return lsn;
      } finally {
        client.release();
      }
    },
    destroy: () => db.destroy(),
  };
}
