import { type CoinCode, coinCodes } from '../catalogue/catalogue.ts';
import { fiatCurrencies } from '../settings/schemas.ts';
import { PriceUnavailableError } from './errors.ts';
import type { PriceCurrency, PriceSnapshot, PriceSource, PriceSourceKind } from './price-source.ts';
import type { Rational } from './rational.ts';

/**
 * The price cache. A background loop refreshes one snapshot of every coin in every fiat currency;
 * readers never wait for the network (a quote reads memory only). A price older than `maxAgeMs`
 * (by the source's own update time, or our fetch time if earlier) counts as missing.
 */
export interface PriceService {
  /** 'sandbox' or 'live'; null when no source is configured (every price is unavailable). */
  readonly kind: PriceSourceKind | null;
  /** Fetch now; on failure the previous snapshot stays (and ages). Resolves either way. */
  refresh(): Promise<void>;
  /** Start the refresh loop (first refresh immediately). */
  start(): void;
  stop(): void;
  /** Fresh price of one whole coin in `currency`, or PRICE_UNAVAILABLE. */
  price(coin: CoinCode, currency: PriceCurrency): Rational;
  /**
   * The last price the source gave for one whole coin, however old, or null (none since start). Only
   * for weighing risk when no fresh price exists (the outflow budget, with a margin): never for a quote.
   */
  lastKnown(coin: CoinCode, currency: PriceCurrency): Rational | null;
  /** Every fresh price in `currency` (coins without one are absent) and the oldest update among them. */
  prices(currency: PriceCurrency): { asOf: Date | null; prices: Partial<Record<CoinCode, Rational>> };
}

export interface PriceServiceOptions {
  source: PriceSource | null;
  now: () => Date;
  /** Older prices refuse quotes; default 120 s (the public API itself updates about once a minute). */
  maxAgeMs?: number;
  /** Refresh period of the loop; default 10 s. */
  refreshMs?: number;
  onError?: (err: unknown) => void;
}

export const DEFAULT_PRICE_MAX_AGE_MS = 120_000;
export const DEFAULT_PRICE_REFRESH_MS = 10_000;

export function createPriceService(options: PriceServiceOptions): PriceService {
  const { source, now } = options;
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_PRICE_MAX_AGE_MS;
  const refreshMs = options.refreshMs ?? DEFAULT_PRICE_REFRESH_MS;
  let snapshot: PriceSnapshot | null = null;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> | null = null;

  const freshAt = (coin: CoinCode): Date | null => {
    const entry = snapshot?.coins[coin];
    if (!snapshot || !entry) return null;
    const asOfMs = Math.min(entry.updatedAt.getTime(), snapshot.fetchedAt.getTime());
    return now().getTime() - asOfMs <= maxAgeMs ? new Date(asOfMs) : null;
  };

  const refresh = (): Promise<void> => {
    if (!source) return Promise.resolve();
    // One fetch at a time: a slow source must not pile up requests.
    inFlight ??= source
      .fetchPrices(coinCodes, fiatCurrencies)
      .then((next) => {
        snapshot = next;
      })
      .catch((err: unknown) => options.onError?.(err))
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };

  return {
    kind: source?.kind ?? null,
    refresh,
    start() {
      if (!source || timer) return;
      void refresh();
      timer = setInterval(() => void refresh(), refreshMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
    price(coin, currency) {
      const asOf = freshAt(coin);
      const value = asOf ? snapshot?.coins[coin]?.prices[currency] : undefined;
      if (!value) throw new PriceUnavailableError(`No fresh ${coin}/${currency} price`);
      return value;
    },
    lastKnown(coin, currency) {
      return snapshot?.coins[coin]?.prices[currency] ?? null;
    },
    prices(currency) {
      const out: Partial<Record<CoinCode, Rational>> = {};
      let oldest: Date | null = null;
      for (const coin of coinCodes) {
        const asOf = freshAt(coin);
        const value = asOf ? snapshot?.coins[coin]?.prices[currency] : undefined;
        if (!asOf || !value) continue;
        out[coin] = value;
        if (!oldest || asOf < oldest) oldest = asOf;
      }
      return { asOf: oldest, prices: out };
    },
  };
}
