import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { IdempotencyKeyReusedError, InsufficientBalanceError, LedgerBusyError } from './errors.ts';
import { assert, type PostResult, type TransferRequest } from './model.ts';
import { assertWellFormed, toPostResult } from './post-transfer.ts';

/**
 * Batched posting (TigerBeetle's lesson: amortise the round trip and the commit). Concurrent
 * postings queue here and go to PostgreSQL together: one `ledger_post_batch` statement (migration
 * 0027), i.e. one round trip and ONE durable commit (synchronous_commit stays on) for up to
 * `batchMax` transfers. The batch's accounts are locked once, in id order; the transfers are decided
 * in order against running balances and written set-wise, so one refused for funds fails alone. A posting resolves only
 * after its batch committed: every acknowledged transfer is durable. Idempotency keys work as
 * for single postings (within a batch, across batches and across retries).
 *
 * Limits: `batchMax` transfers a batch, a wait of at most `waitMs` for a batch to fill, `inFlightMax`
 * batches at once (each holds one pooled connection), and `queueMax` waiting postings: beyond it a
 * posting is refused at once with LEDGER_BUSY (503, retry with the same key) instead of growing.
 *
 * For postings that stand alone (the ledger service's deposits, sends, locks). A posting that must
 * be atomic with other writes (a withdrawal with its lock, a conversion with its quote) keeps using
 * postTransfer inside its own transaction.
 */
export interface LedgerBatcherOptions {
  db: Kysely<Database>;
  now: () => Date;
  batchMax?: number;
  waitMs?: number;
  inFlightMax?: number;
  queueMax?: number;
}

interface Pending {
  request: TransferRequest;
  resolve: (r: PostResult) => void;
  reject: (e: unknown) => void;
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
  const waitMs = options.waitMs ?? 0;
  const inFlightMax = options.inFlightMax ?? 4;
  const queueMax = options.queueMax ?? 20_000;
  assert(batchMax >= 1 && batchMax <= BATCH_MAX, `batchMax in 1..${BATCH_MAX}`);
  assert(inFlightMax >= 1 && queueMax >= batchMax, 'inFlightMax >= 1 and queueMax >= batchMax');
  const queue: Pending[] = [];
  let inFlight = 0;
  let timer: { immediate: NodeJS.Immediate } | { timeout: NodeJS.Timeout } | null = null;
  const idle = new Set<() => void>();

  async function apply(batch: Pending[]): Promise<void> {
    const at = options.now();
    const requests = batch.map((p) => p.request);
    let rows: BatchRow[];
    try {
      ({ rows } = await sql<BatchRow>`
        select b.ord, b.transfer_id::text as transfer_id, b.created, b.status, b.detail
        from ledger_post_batch(
          ${requests.map((r) => r.idempotencyKey)}::text[],
          ${requests.map((r) => r.kind)}::text[],
          ${at},
          ${requests.map((r) => JSON.stringify(r.metadata ?? {}))}::jsonb[],
          ${requests.map((r) => r.legs.length)}::integer[],
          ${requests.flatMap((r) => r.legs.map((l) => l.accountId))}::bigint[],
          ${requests.flatMap((r) => r.legs.map((l) => l.amountMinor.toString()))}::numeric[]
        ) b order by b.ord`.execute(options.db));
    } catch (err) {
      // The statement failed as a whole (connection, a bug): nothing of the batch was committed.
      for (const p of batch) p.reject(err);
      return;
    }
    assert(rows.length === batch.length, 'one result row per transfer');
    for (const [i, p] of batch.entries()) {
      const row = rows[i] as BatchRow;
      if (row.status === 'insufficient') p.reject(new InsufficientBalanceError(row.detail ?? '?'));
      else if (row.status === 'key_reused') p.reject(new IdempotencyKeyReusedError());
      else
        p.resolve(toPostResult(p.request, { transferId: row.transfer_id ?? '', created: row.created, createdAt: at }));
    }
  }

  function pump(): void {
    while (inFlight < inFlightMax && queue.length > 0) {
      const batch = queue.splice(0, batchMax);
      inFlight += 1;
      void apply(batch).finally(() => {
        inFlight -= 1;
        if (queue.length > 0) pump();
        else if (inFlight === 0) for (const done of [...idle]) done();
      });
    }
  }

  function schedule(): void {
    if (queue.length >= batchMax) {
      cancelTimer();
      pump();
      return;
    }
    if (timer) return;
    // A partial batch waits for company: until the end of this event-loop turn (waitMs 0: every
    // posting made in the same turn, e.g. by the clients a finished batch just answered, travels
    // together) or at most waitMs. Under load a batch in flight already gathers the next.
    const fire = () => {
      timer = null;
      pump();
    };
    timer = waitMs === 0 ? { immediate: setImmediate(fire) } : { timeout: setTimeout(fire, waitMs) };
  }

  function cancelTimer(): void {
    if (timer && 'immediate' in timer) clearImmediate(timer.immediate);
    else if (timer) clearTimeout(timer.timeout);
    timer = null;
  }

  return {
    post(request: TransferRequest): Promise<PostResult> {
      assertWellFormed(request);
      if (queue.length >= queueMax) return Promise.reject(new LedgerBusyError(1));
      return new Promise<PostResult>((resolve, reject) => {
        queue.push({ request, resolve, reject });
        schedule();
      });
    },
    /** Postings waiting for a batch (for metrics and tests). */
    get queued() {
      return queue.length;
    },
    /** Resolves once everything queued so far has been applied. */
    drain(): Promise<void> {
      if (queue.length === 0 && inFlight === 0) return Promise.resolve();
      if (timer) {
        cancelTimer();
        pump();
      }
      return new Promise((resolve) => {
        const done = () => {
          idle.delete(done);
          resolve();
        };
        idle.add(done);
      });
    },
  };
}

export type LedgerBatcher = ReturnType<typeof createLedgerBatcher>;
