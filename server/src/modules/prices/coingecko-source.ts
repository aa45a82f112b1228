import { isLosslessNumber, parse } from 'lossless-json';
import type { CoinCode } from '../catalogue/catalogue.ts';
import type { CoinPrices, PriceCurrency, PriceSnapshot, PriceSource, PriceSourceKind } from './price-source.ts';
import { parseDecimal, type Rational } from './rational.ts';

/**
 * Adapter for the CoinGecko "simple price" endpoint (documented public API):
 *
 *   GET {base}/api/v3/simple/price?ids=bitcoin,ethereum&vs_currencies=usd,eur&include_last_updated_at=true&precision=full
 *   -> { "bitcoin": { "usd": 67187.33, "eur": 61870.1, "last_updated_at": 1711356300 }, ... }
 *
 * Prices are JSON numbers; they are read with lossless-json so the digits the server sent become an
 * exact rational (JSON.parse would round them through a float). A currency the API does not list
 * (it has no COP or PEN, for example) is simply absent: that coin has no value in that currency.
 * Our sandbox server speaks the same shape.
 */

/** Our coin codes -> CoinGecko coin ids. */
export const coinGeckoIds: Record<CoinCode, string> = {
  BTC: 'bitcoin',
  ETH: 'ethereum',
  USDT: 'tether',
  USDC: 'usd-coin',
  TUSD: 'true-usd',
  TRX: 'tron',
  BNB: 'binancecoin',
  DOGE: 'dogecoin',
};

/** Largest answer we read (the real one is about 10 KB for our coins and currencies). */
const RESPONSE_BYTES_MAX = 256 * 1024;

export interface CoinGeckoSourceOptions {
  /** e.g. https://api.coingecko.com or http://127.0.0.1:PORT (the sandbox). */
  baseUrl: string;
  kind: PriceSourceKind;
  /** Demo API key, sent as `x-cg-demo-api-key`; optional for the public endpoint. */
  apiKey?: string | undefined;
  timeoutMs?: number;
  now: () => Date;
}

export class PriceSourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PriceSourceError';
  }
}

export function createCoinGeckoSource(options: CoinGeckoSourceOptions): PriceSource {
  const timeoutMs = options.timeoutMs ?? 5000;
  return {
    kind: options.kind,
    async fetchPrices(coins, currencies) {
      const url = new URL('/api/v3/simple/price', options.baseUrl);
      url.searchParams.set('ids', coins.map((c) => coinGeckoIds[c]).join(','));
      url.searchParams.set('vs_currencies', currencies.map((c) => c.toLowerCase()).join(','));
      url.searchParams.set('include_last_updated_at', 'true');
      url.searchParams.set('precision', 'full');
      const headers: Record<string, string> = { accept: 'application/json' };
      if (options.apiKey) headers['x-cg-demo-api-key'] = options.apiKey;
      let text: string;
      try {
        const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
        if (!response.ok) throw new PriceSourceError(`price source answered HTTP ${response.status}`);
        text = await response.text();
      } catch (err) {
        if (err instanceof PriceSourceError) throw err;
        throw new PriceSourceError('price source unreachable', { cause: err });
      }
      if (text.length > RESPONSE_BYTES_MAX) throw new PriceSourceError('price source answer too large');
      return parseSimplePrice(text, coins, currencies, options.now());
    },
  };
}

/** Parses the simple-price answer; entries that are missing or malformed are left out, never guessed. */
export function parseSimplePrice(
  text: string,
  coins: readonly CoinCode[],
  currencies: readonly PriceCurrency[],
  fetchedAt: Date,
): PriceSnapshot {
  let body: unknown;
  try {
    body = parse(text);
  } catch (err) {
    throw new PriceSourceError('price source answer is not JSON', { cause: err });
  }
  if (typeof body !== 'object' || body === null) throw new PriceSourceError('price source answer is not an object');
  const snapshot: PriceSnapshot = { fetchedAt, coins: {} };
  for (const coin of coins) {
    const entry = (body as Record<string, unknown>)[coinGeckoIds[coin]];
    if (typeof entry !== 'object' || entry === null) continue;
    const fields = entry as Record<string, unknown>;
    const prices: CoinPrices['prices'] = {};
    for (const currency of currencies) {
      const price = exact(fields[currency.toLowerCase()]);
      if (price && price.num > 0n) prices[currency] = price;
    }
    const updated = exact(fields.last_updated_at);
    // Without last_updated_at the answer is as fresh as its arrival.
    const updatedAt = updated ? new Date(Number((updated.num * 1000n) / updated.den)) : fetchedAt;
    snapshot.coins[coin] = { prices, updatedAt };
  }
  return snapshot;
}

function exact(value: unknown): Rational | undefined {
  if (!isLosslessNumber(value)) return undefined;
  try {
    return parseDecimal(value.value);
  } catch {
    return undefined;
  }
}
