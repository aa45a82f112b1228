import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { inFlightShare } from './accept-batcher.ts';
import type { QuoteRecord } from './repository.ts';

/**
 * Group insert of quotes. Quotes are the hot path (a screen re-quotes every few seconds for every
 * user), and one INSERT + commit per quote made the database round trip and WAL flush the whole
 * cost. Quotes arriving while the writers are busy gather into the next batch, written in ONE
 * multi-row INSERT; each caller still resolves only after its own row is committed, so a quote
 * id is never handed out before it can be accepted. Ids are made here (UUIDv4), so no RETURNING.
 * The commit does not wait for the WAL flush (see below): quotes are offers, not money.
 */
export interface QuoteWriter {
  write(quote: Omit<QuoteRecord, 'id'>): Promise<QuoteRecord>;
}

/** Rows per INSERT: 14 parameters each, far under PostgreSQL's 65,535 bind parameters. */
const BATCH_MAX = 500;
/**
 * Batches written at the same time. A quote arriving while a writer is free goes at once; under
 * load the writers are busy and quotes gather into the next batches, so a quote waits for about
 * one INSERT, not for a queue of them. Two in the whole database, not more: fewer, bigger batches
 * cost less per quote (each INSERT is a round trip and a wake-up of the database; see
 * accept-batcher.ts for figures); N instances run a share each (inFlightShare).
 */
const DATABASE_WRITERS = 2;

interface Pending {
  record: QuoteRecord;
  resolve: (record: QuoteRecord) => void;
  reject: (err: unknown) => void;
}

/** `instances`: API instances sharing the database; this one runs its share of the writers. */
export function createQuoteWriter(db: Kysely<Database>, instances = 1): QuoteWriter {
  const writersMax = inFlightShare(DATABASE_WRITERS, instances);
  const queue: Pending[] = [];
  let inFlight = 0;

  async function writeBatch(batch: readonly Pending[]): Promise<void> {
    try {
      const rows = batch.map(
        ({ record: q }) =>
          sql`(${q.id}::uuid, ${q.userId}::uuid, ${q.from}, ${q.to}, ${q.amountMinor.toString()}::numeric,
            ${q.feeMinor.toString()}::numeric, ${q.receiveMinor.toString()}::numeric, ${q.rate.num.toString()}::numeric,
            ${q.rate.den.toString()}::numeric, ${q.minMinor.toString()}::numeric, ${q.maxMinor.toString()}::numeric,
            ${q.priceSource}, ${q.createdAt}::timestamptz, ${q.expiresAt}::timestamptz)`,
      );
      // One statement, its own transaction, committed without waiting for the WAL flush
      // (set_config(..., true) lasts until this statement's commit): a quote is an offer, and
      // one lost in a crash only answers 404 when accepted, so the user asks again. Accepting
      // (the money) always commits synchronously.
      await sql`
        insert into convert_quotes (id, user_id, from_asset, to_asset, amount_minor, fee_minor, receive_minor,
          rate_num, rate_den, min_minor, max_minor, price_source, created_at, expires_at)
        select * from (values ${sql.join(rows)}) as v
        where set_config('synchronous_commit', 'off', true) is not null`.execute(db);
      for (const p of batch) p.resolve(p.record);
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }

  /** Starts a writer for what is queued, unless `writersMax` batches are already on their way. */
  function kick(): void {
    if (queue.length === 0 || inFlight >= writersMax) return;
    const batch = queue.splice(0, BATCH_MAX);
    inFlight++;
    void writeBatch(batch).finally(() => {
      inFlight--;
      kick();
    });
  }

  return {
    write(quote) {
      return new Promise<QuoteRecord>((resolve, reject) => {
        queue.push({ record: { ...quote, id: randomUUID() }, resolve, reject });
        kick();
      });
    },
  };
}
