import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { QuoteRecord } from './repository.ts';

/**
 * Group insert of quotes. Quotes are the hot path (a screen re-quotes every few seconds for every
 * user), and one INSERT + commit per quote made the database round trip and WAL flush the whole
 * cost. Quotes arriving while a batch is being written wait for the next batch, which is written in
 * ONE multi-row INSERT; each caller still resolves only after its own row is committed, so a quote
 * id is never handed out before it can be accepted. Ids are made here (UUIDv4), so no RETURNING.
 */
export interface QuoteWriter {
  write(quote: Omit<QuoteRecord, 'id'>): Promise<QuoteRecord>;
}

/** Rows per INSERT: 14 parameters each, far under PostgreSQL's 65,535 bind parameters. */
const BATCH_MAX = 500;

interface Pending {
  record: QuoteRecord;
  resolve: (record: QuoteRecord) => void;
  reject: (err: unknown) => void;
}

export function createQuoteWriter(db: Kysely<Database>): QuoteWriter {
  let queue: Pending[] = [];
  let writing = false;

  async function drain(): Promise<void> {
    writing = true;
    try {
      while (queue.length > 0) {
        const batch = queue.slice(0, BATCH_MAX);
        queue = queue.slice(batch.length);
        try {
          await db
            .insertInto('convert_quotes')
            .values(
              batch.map(({ record: q }) => ({
                id: q.id,
                user_id: q.userId,
                from_asset: q.from,
                to_asset: q.to,
                amount_minor: q.amountMinor.toString(),
                fee_minor: q.feeMinor.toString(),
                receive_minor: q.receiveMinor.toString(),
                rate_num: q.rate.num.toString(),
                rate_den: q.rate.den.toString(),
                min_minor: q.minMinor.toString(),
                max_minor: q.maxMinor.toString(),
                price_source: q.priceSource,
                created_at: q.createdAt,
                expires_at: q.expiresAt,
              })),
            )
            .execute();
          for (const p of batch) p.resolve(p.record);
        } catch (err) {
          for (const p of batch) p.reject(err);
        }
      }
    } finally {
      writing = false;
    }
  }

  return {
    write(quote) {
      return new Promise<QuoteRecord>((resolve, reject) => {
        queue.push({ record: { ...quote, id: randomUUID() }, resolve, reject });
        // The first quote starts a writer; later ones ride along in the following batch.
        if (!writing) void drain();
      });
    },
  };
}
