import { api, queryClient, unwrap } from '@cw/shared-state/api';
import { type FiatCurrency, fiatCurrencyInfo, formatFiat, useSettings } from '@cw/shared-state/settings';
import { useQuery } from '@tanstack/react-query';
import { fiatValueMinor } from './fiat-value.ts';

export interface CoinPrice {
  asset: string;
  decimals: number;
  /** Fiat per whole coin, decimal text. */
  price: string;
}

export interface Prices {
  /** 'sandbox': simulated prices; show a "sandbox" label next to values derived from them. */
  source: 'sandbox' | 'live';
  fiat: FiatCurrency;
  asOf: string;
  prices: CoinPrice[];
}

/** How often prices are re-read; the server refreshes its cache every few seconds. */
export const PRICES_REFRESH_MS = 10_000;

export const pricesQueryKey = (fiat: FiatCurrency) => ['prices', fiat] as const;

export async function fetchPrices(fiat: FiatCurrency): Promise<Prices> {
  return (await unwrap(api.GET('/api/prices', { params: { query: { fiat } } }))) as Prices;
}

/**
 * Prices of every coin in the user's price-mode currency (or `fiat`), refreshed in the background.
 * Uses the shared query client, so every remote reads the same cached answer.
 */
export function usePrices(fiat?: FiatCurrency) {
  const preferred = useSettings((s) => s.fiatCurrency);
  const currency = fiat ?? preferred;
  return useQuery(
    {
      queryKey: pricesQueryKey(currency),
      queryFn: () => fetchPrices(currency),
      refetchInterval: PRICES_REFRESH_MS,
      staleTime: PRICES_REFRESH_MS / 2,
    },
    queryClient,
  );
}

/** The price entry of a coin, if the server had a fresh one. */
export function priceOf(prices: Prices | undefined, asset: string): CoinPrice | undefined {
  return prices?.prices.find((p) => p.asset === asset);
}

/** Fiat value of an amount in minor units, in the prices' currency minor units; null without a price. */
export function fiatValueOf(prices: Prices | undefined, asset: string, amountMinor: bigint): bigint | null {
  const entry = priceOf(prices, asset);
  if (!prices || !entry) return null;
  return fiatValueMinor(amountMinor, entry.decimals, entry.price, fiatCurrencyInfo(prices.fiat).decimals);
}

/** "≈ $12.34" style text of an amount's fiat value; null without a price. */
export function formatFiatValue(prices: Prices | undefined, asset: string, amountMinor: bigint): string | null {
  const value = fiatValueOf(prices, asset, amountMinor);
  return value === null || !prices ? null : formatFiat(value, prices.fiat);
}
