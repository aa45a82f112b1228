import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import { createBatchQueue, type Outcome } from '../ledger/batch-queue.ts';
import { InsufficientBalanceError, LedgerBusyError } from '../ledger/errors.ts';
import { assert } from '../ledger/model.ts';
import { rational } from '../prices/rational.ts';
import { LiquidityShortError, QuoteNotFoundError } from './errors.ts';
import type { ConversionRecord } from './repository.ts';
import { UUID_PATTERN } from './schemas.ts';

/**
 * Quote accepts go to PostgreSQL in batches: one `convert_accept_batch` statement (migration 0031)
 * locks the batch's quotes, posts every conversion as a linked pair of transfers through
 * `ledger_post_batch` and inserts the conversions, in one transaction and one durable commit. The
 * liquidity account of a coin is locked once per batch instead of once per conversion, which is
 * what bounded conversions to one at a time per coin; and concurrent batches use different lanes of
 * those accounts (migration 0035), so they do not wait for each other's commit. Each accept resolves after its batch
 * committed; limits (batch size, batches in flight, queue length -> LEDGER_BUSY) come from batch-queue.ts.
 */
export type AcceptAttempt =
  | { done: ConversionRecord }
  | { expired: { from: CoinCode; to: CoinCode; amountMinor: bigint; quoteId: string } };

interface AcceptRequest {
  quoteId: string;
  userId: string;
}

interface Row {
  ord: number;
  outcome: 'converted' | 'expired' | 'not_found' | 'insufficient' | 'liquidity_short';
  detail: string | null;
  conversion_id: string | null;
  created_at: Date | null;
  give_transfer_id: string | null;
  get_transfer_id: string | null;
  from_asset: CoinCode | null;
  to_asset: CoinCode | null;
  amount_minor: string | null;
  fee_minor: string | null;
  receive_minor: string | null;
  rate_num: string | null;
  rate_den: string | null;
}

/** The route's own id pattern (schemas.ts). */
const UUID = new RegExp(UUID_PATTERN);

/** The SQL function takes at most 500 requests. */
export const ACCEPT_BATCH_MAX = 500;

function toOutcome(request: AcceptRequest, row: Row): Outcome<AcceptAttempt> {
  const need = <T>(value: T | null): T => {
    assert(value !== null, 'an accepted or expired quote comes back with its fields');
    return value as T;
  };
  switch (row.outcome) {
    case 'not_found':
      return { error: new QuoteNotFoundError() };
    case 'insufficient':
      return { error: new InsufficientBalanceError(row.detail ?? '?') };
    case 'liquidity_short':
      return { error: new LiquidityShortError(need(row.to_asset)) };
    case 'expired':
      return {
        ok: {
          expired: {
            quoteId: request.quoteId,
            from: need(row.from_asset),
            to: need(row.to_asset),
            amountMinor: BigInt(need(row.amount_minor)),
          },
        },
      };
    case 'converted':
      return {
        ok: {
          done: {
            id: need(row.conversion_id),
            quoteId: request.quoteId,
            userId: request.userId,
            from: need(row.from_asset),
            to: need(row.to_asset),
            amountMinor: BigInt(need(row.amount_minor)),
            feeMinor: BigInt(need(row.fee_minor)),
            receiveMinor: BigInt(need(row.receive_minor)),
            rate: rational(BigInt(need(row.rate_num)), BigInt(need(row.rate_den))),
            giveTransferId: need(row.give_transfer_id),
            getTransferId: need(row.get_transfer_id),
            createdAt: need(row.created_at),
          },
        },
      };
  }
}

export interface AcceptBatcherOptions {
  db: Kysely<Database>;
  now: () => Date;
  batchMax?: number;
  /**
   * Liquidity lanes (migration 0034): batches take lanes 1..lanes in turn, so that many commit side
   * by side instead of queueing on one liquidity row per coin; 0 posts on the main accounts.
   */
  lanes?: number;
  /** API instances sharing the database (API_INSTANCES): this one keeps its share of batches in flight. */
  instances?: number;
}

/**
 * Batches in flight at once in the whole database; each has a lane of its own. Few on purpose: while
 * they run, the next batch gathers, and a bigger batch pays the round trip, the plan's fixed cost and
 * the commit once for more conversions. bench:convert on 2 cores: 2 in flight gave 2,030 - 2,240
 * conversions/s against 1,870 - 2,010 with 8 (interleaved runs).
 */
const DATABASE_IN_FLIGHT = 2;

/**
 * One instance's share of a database-wide number of batches in flight (at least one). With each of N
 * instances keeping the whole number, the database got N times the batches, each a third the size for
 * N = 3, and they waited for each other's lanes: on 3 instances, 0.6 backends on average waited for a
 * lock in `convert_accept_batch` (none on 1 instance) and PostgreSQL spent 1.95 ms of CPU per operation
 * of bench:scale's mix; with a share of 1 each, 0.11 waiting, 1.46 ms, and 19% more operations/s.
 */
export function inFlightShare(databaseInFlight: number, instances = 1): number {
  assert(Number.isInteger(instances) && instances >= 1, 'instances >= 1');
  return Math.max(1, Math.round(databaseInFlight / instances));
}

export function createAcceptBatcher(options: AcceptBatcherOptions) {
  const batchMax = options.batchMax ?? 200;
  const lanes = options.lanes ?? 4;
  assert(batchMax >= 1 && batchMax <= ACCEPT_BATCH_MAX, `batchMax in 1..${ACCEPT_BATCH_MAX}`);
  assert(Number.isInteger(lanes) && lanes >= 0 && lanes <= 15, 'lanes in 0..15');
  // Instances start their turns at different lanes, so their batches do not queue on the same one.
  let turn = Math.floor(Math.random() * Math.max(1, lanes));
  const acceptBatch = async (requests: readonly AcceptRequest[], lane: number) => {
    const { rows } = await sql<Row>`
      select ord, outcome, detail, conversion_id::text, created_at, give_transfer_id::text, get_transfer_id::text,
        from_asset, to_asset, amount_minor::text, fee_minor::text, receive_minor::text, rate_num::text, rate_den::text
      from convert_accept_batch(${requests.map((r) => r.quoteId)}::uuid[], ${requests.map((r) => r.userId)}::uuid[],
        ${options.now()}, ${lane}::smallint, ${Math.max(1, lanes)}::smallint) order by ord`.execute(options.db);
    assert(rows.length === requests.length, 'one answer per accept');
    return rows;
  };
  const queue = createBatchQueue<AcceptRequest, AcceptAttempt>({
    batchMax,
    inFlightMax: inFlightShare(DATABASE_IN_FLIGHT, options.instances),
    busy: () => new LedgerBusyError(1),
    async apply(requests) {
      const lane = lanes === 0 ? 0 : (turn++ % lanes) + 1;
      const rows = await acceptBatch(requests, lane);
      const short = rows.flatMap((row, i) => (row.outcome === 'liquidity_short' ? [i] : []));
      if (lane > 0 && short.length > 0) await retryOnMain(requests, rows, short);
      return requests.map((request, i) => toOutcome(request, rows[i] as Row));
    },
  });

  /**
   * Conversions a lane could not pay: the coin's lanes go back to the main account, and they are
   * tried once more there. So LIQUIDITY_SHORT means the coin's whole liquidity is short, not a lane's.
   */
  async function retryOnMain(requests: readonly AcceptRequest[], rows: Row[], short: readonly number[]) {
    const assets = new Set(short.map((i) => rows[i]?.to_asset ?? ''));
    for (const asset of assets) {
      await sql`select convert_liquidity_consolidate(${asset}, ${options.now()})`.execute(options.db);
    }
    const again = await acceptBatch(
      short.map((i) => requests[i] as AcceptRequest),
      0,
    );
    for (const [k, i] of short.entries()) rows[i] = { ...(again[k] as Row), ord: (rows[i] as Row).ord };
  }

  return {
    accept(userId: string, quoteId: string): Promise<AcceptAttempt> {
      // A malformed id would fail the whole batch's cast; the route validates it, this keeps it so.
      if (!UUID.test(quoteId) || !UUID.test(userId)) return Promise.reject(new QuoteNotFoundError());
      return queue.submit({ userId, quoteId });
    },
    drain: () => queue.drain(),
  };
}
