import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.ts';
import { isMultiHostUrl, PrimaryPool, splitMultiHostUrl } from './multi-host-pool.ts';
import { PrimaryPositions, samplePrimary } from './primary-positions.ts';
import { parseReadUrl, ReadPool } from './read-pool.ts';
import { isReplicaDown, ReplicaFallbackClient } from './replica-fallback-client.ts';

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
export type ReadReason =
  | 'replica'
  | 'outside-replica-route'
  | 'replica-behind'
  | 'replica-lagged'
  | 'replica-unavailable'
  | 'replica-failed';

interface ReadContext {
  /** The caller's last write position (pg_lsn text), or null: any replay position will do. */
  minLsn: string | null;
}

const context = new AsyncLocalStorage<ReadContext>();

/**
 * One round trip before a replica read, on the connection that will run it:
 * - `caught_up`: the replica replayed past the caller's own last write (read-your-writes), if any;
 * - `fresh` (review s8 finding 4, s8b I): the replica replayed at least what the primary had written
 *   maxLag ago ($2, from primary-positions.ts). Measured against the primary, so a standby that stopped
 *   receiving (link cut, WAL removed, archive-only) is caught as surely as one that stopped replaying, and
 *   an idle primary (position unchanged) never makes a caught-up replica look lagged. No yardstick ($2
 *   null): lagged. An archive-only standby (no streaming) is used while its replay keeps up.
 * A host not in recovery is a primary (prefer-standby found no standby): it has every commit.
 */
const CHECK_SQL = `select not pg_is_in_recovery() as is_primary,
  ($1::pg_lsn is null or coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false)) as caught_up,
  coalesce(pg_last_wal_replay_lsn() >= $2::pg_lsn, false) as fresh`;

/** `16/B374D848`: what pg_lsn prints; anything else from a client is ignored. */
export const LSN_TEXT = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i;

class RoutingPool implements PostgresPool {
  private readonly primary: PostgresPool;
  private readonly replica: ReadPool;
  private readonly positions: PrimaryPositions;
  private readonly onRouted: (side: ReadSide, reason: ReadReason) => void;

  constructor(
    primary: PostgresPool,
    replica: ReadPool,
    positions: PrimaryPositions,
    onRouted: (side: ReadSide, reason: ReadReason) => void,
  ) {
    this.primary = primary;
    this.replica = replica;
    this.positions = positions;
    this.onRouted = onRouted;
  }

  private toPrimary(reason: ReadReason): Promise<PostgresPoolClient> {
    this.onRouted('primary', reason);
    return this.primary.connect();
  }

  async connect(): Promise<PostgresPoolClient> {
    const ctx = context.getStore();
    if (!ctx) return this.toPrimary('outside-replica-route');
    let client: pg.PoolClient;
    try {
      client = (await this.replica.connect()) as unknown as pg.PoolClient;
    } catch {
      // A lost (or marked down) replica costs freshness nothing and availability nothing: the primary answers.
      return this.toPrimary('replica-unavailable');
    }
    let verdict: ReadReason = 'replica-unavailable';
    let broken: Error | undefined;
    try {
      const { rows } = await client.query<{ is_primary: boolean; caught_up: boolean; fresh: boolean }>(CHECK_SQL, [
        ctx.minLsn,
        this.positions.floor(performance.now()),
      ]);
      const row = rows[0];
      if (row?.is_primary) verdict = 'replica';
      else if (row && !row.caught_up) verdict = 'replica-behind';
      else if (row) verdict = row.fresh ? 'replica' : 'replica-lagged';
    } catch (err) {
      broken = err as Error;
      if (isReplicaDown(err)) this.replica.markDown();
    }
    if (verdict !== 'replica') {
      // A connection whose check failed is destroyed, not pooled again (pg: release(err)).
      client.release(broken);
      return this.toPrimary(verdict);
    }
    this.onRouted('replica', 'replica');
    const fallback = new ReplicaFallbackClient(
      client,
      () => this.toPrimary('replica-failed'),
      (err) => {
        if (isReplicaDown(err)) this.replica.markDown();
      },
    );
    return fallback as unknown as PostgresPoolClient;
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
  /** A replica that has not replayed what the primary had written this long ago is not used (REPLICA_MAX_LAG_MS); default 5 s. */
  maxLagMs?: number;
  /** How often the primary's WAL position is sampled for that test (default maxLag / 4, 50 ms to 1 s). */
  primarySampleIntervalMs?: number;
  /** Per host: connect and answer the probe (default 1 s). */
  probeTimeoutMs?: number;
  /** A pooled connection's connect, and a checkout's wait (default 2 s). */
  connectTimeoutMs?: number;
  /** statement_timeout and query timeout on both read pools (default 5 s). */
  statementTimeoutMs?: number;
  /** The write's mark: its own pool's connect and query bound (default 500 ms); past it, no mark. */
  lsnTimeoutMs?: number;
}

interface PoolTimeouts {
  connectTimeoutMs: number;
  statementTimeoutMs: number;
}

function primaryPoolOf(
  url: string,
  max: number,
  logger: ReadRoutingOptions['logger'],
  timeouts: PoolTimeouts,
): PostgresPool {
  if (isMultiHostUrl(url)) return new PrimaryPool(splitMultiHostUrl(url), { max, ...(logger ? { logger } : {}) });
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    statement_timeout: timeouts.statementTimeoutMs,
    query_timeout: timeouts.statementTimeoutMs + 500,
    keepAlive: true,
  });
  pool.on('error', (err) => {
    if ((err as { code?: string }).code !== '57P01') logger?.error({ err }, 'idle PostgreSQL client error (reads)');
  });
  return pool;
}

/** Rejects after `ms`: the caller gives up waiting (the work itself is bounded by its pool's timeouts). */
function bounded<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export function createReadRouting(options: ReadRoutingOptions): ReadRouting {
  const max = options.max ?? 5;
  const timeouts = {
    connectTimeoutMs: options.connectTimeoutMs ?? 2_000,
    statementTimeoutMs: options.statementTimeoutMs ?? 5_000,
  };
  const primary = primaryPoolOf(options.primaryUrl, max, options.logger, timeouts);
  // The write's mark has its own two connections: it never queues behind reads that fell back to the primary.
  const lsnTimeoutMs = options.lsnTimeoutMs ?? 500;
  const lsnPool = primaryPoolOf(options.primaryUrl, 2, options.logger, {
    connectTimeoutMs: lsnTimeoutMs,
    statementTimeoutMs: lsnTimeoutMs,
  });
  const replica = new ReadPool(parseReadUrl(options.readUrl), {
    max,
    ...timeouts,
    ...(options.probeTimeoutMs !== undefined ? { probeTimeoutMs: options.probeTimeoutMs } : {}),
  });
  const maxLagMs = options.maxLagMs ?? 5_000;
  // A write is seen at most maxLag + one interval after it: a quarter of the ceiling, at most a second.
  const sampleIntervalMs = options.primarySampleIntervalMs ?? Math.max(50, Math.min(1_000, maxLagMs / 4));
  const positions = new PrimaryPositions(maxLagMs, sampleIntervalMs);
  const routing = new RoutingPool(primary, replica, positions, options.onRouted ?? (() => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: routing }) });
  const primaryLsn = () =>
    bounded(
      lsnTimeoutMs * 2,
      (async () => {
        const client = (await lsnPool.connect()) as unknown as pg.PoolClient;
        try {
          const { rows } = await client.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn');
          const lsn = rows[0]?.lsn ?? '';
          if (!LSN_TEXT.test(lsn)) throw new Error(`unexpected WAL position ${lsn}`);
          return lsn;
        } finally {
          client.release();
        }
      })(),
    );
  // On the mark's own pool: never queued behind reads that fell back to the primary.
  const stopSampling = samplePrimary(positions, sampleIntervalMs, primaryLsn);
  return {
    db,
    run: (minLsn, fn) => context.run({ minLsn: minLsn !== null && LSN_TEXT.test(minLsn) ? minLsn : null }, fn),
    primaryLsn,
    destroy: async () => {
      stopSampling();
      await Promise.all([db.destroy(), lsnPool.end()]);
    },
  };
}
