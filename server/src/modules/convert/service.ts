import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { NotFoundError } from '../../errors/app-error.ts';
import { decodeTimeIdCursor, encodeTimeIdCursor } from '../../http/cursor.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import { PriceUnavailableError } from '../prices/errors.ts';
import { toDecimal } from '../prices/rational.ts';
import type { PriceService } from '../prices/service.ts';
import { type AcceptAttempt, createAcceptBatcher } from './accept-batcher.ts';
import { AmountOutOfRangeError, PairUnsupportedError, StableDustError } from './errors.ts';
import { isStablePair, priceQuote, stableDustMinor } from './pricing.ts';
import { createQuoteWriter } from './quote-writer.ts';
import {
  type ConversionRecord,
  findConversion,
  listConversions,
  markReplaced,
  type QuoteRecord,
} from './repository.ts';
import type { AcceptResult, Conversion, HistoryPage, Quote } from './schemas.ts';

export const DEFAULT_QUOTE_TTL_MS = 10_000;
/** A batch failed whole by a deadlock or serialization failure is retried (each accept again) this many times. */
const RETRIES_MAX = 3;
const RETRYABLE = new Set(['40P01', '40001']);

export interface ConvertService {
  quote(userId: string, request: { from: CoinCode; to: CoinCode; amountMinor: bigint }): Promise<Quote>;
  /** Converts once per quote; an expired quote gives a new quote and converts nothing. */
  accept(userId: string, quoteId: string): Promise<AcceptResult>;
  conversion(userId: string, id: string): Promise<Conversion>;
  history(
    userId: string,
    options: {
      cursor?: string | undefined;
      limit?: number | undefined;
      from?: CoinCode | undefined;
      to?: CoinCode | undefined;
    },
  ): Promise<HistoryPage>;
}

export interface ConvertServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
  prices: PriceService;
  /** Quote lifetime; default 10 s. */
  quoteTtlMs?: number;
  /** API instances sharing the database (API_INSTANCES; 1 when absent): the batchers take their share. */
  instances?: number;
}

const toQuoteDto = (q: QuoteRecord): Quote => ({
  quoteId: q.id,
  from: q.from,
  to: q.to,
  amountMinor: q.amountMinor.toString(),
  rate: toDecimal(q.rate, 18),
  feeMinor: q.feeMinor.toString(),
  receiveMinor: q.receiveMinor.toString(),
  minMinor: q.minMinor.toString(),
  maxMinor: q.maxMinor.toString(),
  source: q.priceSource === 'live' ? 'live' : 'sandbox',
  createdAt: q.createdAt.toISOString(),
  expiresAt: q.expiresAt.toISOString(),
});

export const toConversionDto = (c: ConversionRecord): Conversion => ({
  id: c.id,
  quoteId: c.quoteId,
  from: c.from,
  to: c.to,
  amountMinor: c.amountMinor.toString(),
  feeMinor: c.feeMinor.toString(),
  receiveMinor: c.receiveMinor.toString(),
  rate: toDecimal(c.rate, 18),
  status: 'completed',
  createdAt: c.createdAt.toISOString(),
});

export function createConvertService(deps: ConvertServiceDeps): ConvertService {
  const { db, now, prices, quoteTtlMs, instances } = deps;
  const ttlMs = quoteTtlMs ?? DEFAULT_QUOTE_TTL_MS;
  const quotes = createQuoteWriter(db, instances);
  // Accepts travel in batches (one statement and one commit for many; migration 0031).
  const accepts = createAcceptBatcher({ db, now, instances });

  async function newQuote(userId: string, from: CoinCode, to: CoinCode, amountMinor: bigint): Promise<QuoteRecord> {
    if (from === to) throw new PairUnsupportedError('Pick two different coins');
    if (!prices.kind) throw new PriceUnavailableError('No price source configured');
    if (isStablePair(from, to) && stableDustMinor(from, to, amountMinor) !== 0n) throw new StableDustError();
    const priced = priceQuote({ from, to, amountMinor, usdPrice: (coin) => prices.price(coin, 'USD') });
    if (amountMinor < priced.minMinor || amountMinor > priced.maxMinor || priced.receiveMinor <= 0n) {
      throw new AmountOutOfRangeError(priced.minMinor, priced.maxMinor);
    }
    const createdAt = now();
    return quotes.write({
      userId,
      from,
      to,
      amountMinor,
      feeMinor: priced.feeMinor,
      receiveMinor: priced.receiveMinor,
      rate: priced.rate,
      minMinor: priced.minMinor,
      maxMinor: priced.maxMinor,
      priceSource: prices.kind,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + ttlMs),
    });
  }

  return {
    async quote(userId, { from, to, amountMinor }) {
      return toQuoteDto(await newQuote(userId, from, to, amountMinor));
    },

    async accept(userId, quoteId) {
      let attempt: AcceptAttempt | undefined;
      for (let i = 0; ; i++) {
        try {
          attempt = await accepts.accept(userId, quoteId);
          break;
        } catch (err) {
          const code = (err as { code?: unknown }).code;
          if (i + 1 >= RETRIES_MAX || typeof code !== 'string' || !RETRYABLE.has(code)) throw err;
        }
      }
      if ('done' in attempt) return { outcome: 'converted', conversion: toConversionDto(attempt.done) };
      // Rate expired and updated: a new quote for the same amount, to be accepted on its own.
      const old = attempt.expired;
      const fresh = await newQuote(userId, old.from, old.to, old.amountMinor);
      await markReplaced(db, old.quoteId, fresh.id);
      return { outcome: 'requoted', quote: toQuoteDto(fresh) };
    },

    async conversion(userId, id) {
      const found = await findConversion(db, id, userId);
      if (!found) throw new NotFoundError('No such conversion');
      return toConversionDto(found);
    },

    async history(userId, { cursor, limit, from, to }) {
      const pageSize = limit ?? 20;
      const after = cursor ? decodeTimeIdCursor(cursor) : null;
      const rows = await listConversions(db, userId, pageSize + 1, after, { from, to });
      const items = rows.slice(0, pageSize);
      const last = items[items.length - 1];
      return {
        items: items.map(toConversionDto),
        nextCursor: rows.length > pageSize && last ? encodeTimeIdCursor(last) : null,
      };
    },
  };
}
