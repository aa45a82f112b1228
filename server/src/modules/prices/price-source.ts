import type { CoinCode } from '../catalogue/catalogue.ts';
import type { fiatCurrencies } from '../settings/schemas.ts';
import type { Rational } from './rational.ts';

/** Where prices come from: `live` is a public market-data API, `sandbox` our loopback server. */
export type PriceSourceKind = 'live' | 'sandbox';

/** A quote currency of a price: a fiat currency code (USD, CNY, ...). */
export type PriceCurrency = (typeof fiatCurrencies)[number];

export interface CoinPrices {
  /** Price of one whole coin per fiat currency the source answered for (missing: no price). */
  prices: Partial<Record<PriceCurrency, Rational>>;
  /** When the source last updated this coin's price. */
  updatedAt: Date;
}

export interface PriceSnapshot {
  /** When we received the answer (the service's clock). */
  fetchedAt: Date;
  coins: Partial<Record<CoinCode, CoinPrices>>;
}

/** A market-data source: one request for every coin in every fiat currency. */
export interface PriceSource {
  readonly kind: PriceSourceKind;
  fetchPrices(coins: readonly CoinCode[], currencies: readonly PriceCurrency[]): Promise<PriceSnapshot>;
}
