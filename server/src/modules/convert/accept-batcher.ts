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
 * what bounded conversions to one at a time per coin. Each accept resolves after its batch
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

export function createAcceptBatcher(options: { db: Kysely<Database>; now: () => Date; batchMax?: number }) {
  const batchMax = options.batchMax ?? 200;
  assert(batchMax >= 1 && batchMax <= ACCEPT_BATCH_MAX, `batchMax in 1..${ACCEPT_BATCH_MAX}`);
  const queue = createBatchQueue<AcceptRequest, AcceptAttempt>({
    batchMax,
    // Batches queue on the liquidity rows, so a few more in flight keep the work before the lock busy.
    inFlightMax: 8,
    busy: () => new LedgerBusyError(1),
    async apply(requests) {
      const { rows } = await sql<Row>`
        select ord, outcome, detail, conversion_id::text, created_at, give_transfer_id::text, get_transfer_id::text,
          from_asset, to_asset, amount_minor::text, fee_minor::text, receive_minor::text, rate_num::text, rate_den::text
        from convert_accept_batch(${requests.map((r) => r.quoteId)}::uuid[], ${requests.map((r) => r.userId)}::uuid[],
          ${options.now()}) order by ord`.execute(options.db);
      assert(rows.length === requests.length, 'one answer per accept');
      return requests.map((request, i) => toOutcome(request, rows[i] as Row));
    },
  });
  return {
    accept(userId: string, quoteId: string): Promise<AcceptAttempt> {
      // A malformed id would fail the whole batch's cast; the route validates it, this keeps it so.
      if (!UUID.test(quoteId) || !UUID.test(userId)) return Promise.reject(new QuoteNotFoundError());
      return queue.submit({ userId, quoteId });
    },
    drain: () => queue.drain(),
  };
}
