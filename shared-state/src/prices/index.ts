/**
 * @cw/shared-state/prices: coin prices in the user's price-mode currency (GET /api/prices) and
 * exact fiat values of coin amounts, for every remote that shows what a balance is worth.
 * Stateless apart from the shared query client's cache.
 */
export { fiatValueMinor, PRICE_DECIMALS_MAX, parsePrice } from './fiat-value.ts';
export {
  type CoinPrice,
  fetchPrices,
  fiatValueOf,
  formatFiatValue,
  PRICES_REFRESH_MS,
  type Prices,
  priceOf,
  pricesQueryKey,
  usePrices,
} from './use-prices.ts';
