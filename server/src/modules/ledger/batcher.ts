import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createBatchQueue, type Outcome } from './batch-queue.ts';
import { IdempotencyKeyReusedError, InsufficientBalanceError, LedgerBusyError } from './errors.ts';
import { assert, type PostResult, type TransferRequest } from './model.ts';
import { assertWellFormed, toPostResult } from './post-transfer.ts';

/**
 * Batched posting. Concurrent postings queue here (batch-queue.ts: limits on batch size, wait,
 * batches in flight and queue length; a full queue answers LEDGER_BUSY, 503, retry with the same
 * key) and go to PostgreSQL together: one `ledger_post_batch` statement (migrations 0028-0030), i.e.
 * one round trip and ONE durable commit (synchronous_commit stays on) for up to `batchMax`
 * transfers. The batch's accounts are locked once, in id order; a batch that cannot overdraw is
 * written set-wise, any other is decided in order against running balances, so one transfer refused
 * for funds fails alone. A posting resolves only after its batch committed: every acknowledged
 * transfer is durable. Idempotency keys work as for single postings (within a batch, across batches
 * and across retries).
 *
 * For postings that stand alone. A posting that must be atomic with other writes either travels
 * with its own batch statement (a conversion: convert_accept_batch) or keeps using postTransfer
 * inside its transaction (see the ledger README for which and why).
 */
export interface LedgerBatcherOptions {
  db: Kysely<Database>;
  now: () => Date;
  batchMax?: number;
  waitMs?: number;
  inFlightMax?: number;
  queueMax?: number;
}

interface BatchRow {
  ord: number;
  transfer_id: string | null;
  created: boolean;
  status: 'ok' | 'insufficient' | 'key_reused';
  detail: string | null;
}

export const BATCH_MAX = 1000;

export function createLedgerBatcher(options: LedgerBatcherOptions) {
  const batchMax = options.batchMax ?? 256;
  assert(batchMax >= 1 && batchMax <= BATCH_MAX, `batchMax in 1..${BATCH_MAX}`);

  async function apply(requests: TransferRequest[]): Promise<Outcome<PostResult>[]> {
    const at = options.now();
    const { rows } = await sql<BatchRow>`
      select b.ord, b.transfer_id::text as transfer_id, b.created, b.status, b.detail
      from ledger_post_batch(
        ${requests.map((r) => r.idempotencyKey)}::text[],
        ${requests.map((r) => r.kind)}::text[],
        ${at},
        ${requests.map((r) => JSON.stringify(r.metadata ?? {}))}::jsonb[],
        ${requests.map((r) => r.legs.length)}::integer[],
        ${requests.flatMap((r) => r.legs.map((l) => l.accountId))}::bigint[],
        ${requests.flatMap((r) => r.legs.map((l) => l.amountMinor.toString()))}::numeric[]
      ) b order by b.ord`.execute(options.db);
    assert(rows.length === requests.length, 'one result row per transfer');
    return requests.map((request, i) => {
      const row = rows[i] as BatchRow;
      if (row.status === 'insufficient') return { error: new InsufficientBalanceError(row.detail ?? '?') };
      if (row.status === 'key_reused') return { error: new IdempotencyKeyReusedError() };
      return { ok: toPostResult(request, { transferId: row.transfer_id ?? '', created: row.created, createdAt: at }) };
    });
  }

  const queue = createBatchQueue<TransferRequest, PostResult>({
    apply,
    busy: () => new LedgerBusyError(1),
    batchMax,
    ...(options.waitMs === undefined ? {} : { waitMs: options.waitMs }),
    ...(options.inFlightMax === undefined ? {} : { inFlightMax: options.inFlightMax }),
    ...(options.queueMax === undefined ? {} : { queueMax: options.queueMax }),
  });

  return {
    post(request: TransferRequest): Promise<PostResult> {
      assertWellFormed(request);
      return queue.submit(request);
    },
    /** Postings waiting for a batch (for metrics and tests). */
    get queued() {
      return queue.queued;
    },
    /** Resolves once everything queued so far has been applied. */
    drain: () => queue.drain(),
  };
}

export type LedgerBatcher = ReturnType<typeof createLedgerBatcher>;
