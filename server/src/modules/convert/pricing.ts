import { type CoinCode, coinDecimals } from '../catalogue/catalogue.ts';
import { ceilTimes, div, floorTimes, mul, parseDecimal, type Rational, rational } from '../prices/rational.ts';

/**
 * Quote arithmetic, pure and exact (bigint rationals). Rounding always favours the platform:
 * the fee rounds UP, the amount received rounds DOWN, so no conversion creates value.
 *
 * Rate: whole `to` coins per whole `from` coin. Stablecoins (USDT, USDC, TUSD) convert 1:1 in
 * value with no spread and no fee, across different ledger decimals (TUSD 18, USDT/USDC 6).
 */

export const STABLECOINS: ReadonlySet<CoinCode> = new Set<CoinCode>(['USDT', 'USDC', 'TUSD']);
/** The platform's margin on non-stable pairs: the rate is this much under the mid price. */
export const SPREAD_BPS = 50n;
/** Service fee on non-stable pairs, in the coin given, rounded up. */
export const FEE_BPS = 10n;
const BPS = 10_000n;
/** Conversion limits in USD value of the coin given. */
export const MIN_USD = parseDecimal('1');
export const MAX_USD = parseDecimal('100000');

export const isStablePair = (from: CoinCode, to: CoinCode) => STABLECOINS.has(from) && STABLECOINS.has(to);

export interface PricedQuote {
  rate: Rational;
  feeMinor: bigint;
  receiveMinor: bigint;
  minMinor: bigint;
  maxMinor: bigint;
}

export interface QuoteInput {
  from: CoinCode;
  to: CoinCode;
  amountMinor: bigint;
  /** USD price of one whole coin; not read for a stable pair. */
  usdPrice: (coin: CoinCode) => Rational;
}

/** Limits in minor units of `from`: [ceil(MIN_USD / price), floor(MAX_USD / price)]. */
export function limits(from: CoinCode, fromUsd: Rational): { minMinor: bigint; maxMinor: bigint } {
  const unit = 10n ** BigInt(coinDecimals(from));
  return { minMinor: ceilTimes(div(MIN_USD, fromUsd), unit), maxMinor: floorTimes(div(MAX_USD, fromUsd), unit) };
}

/**
 * Prices a conversion. `receiveMinor` may come out 0 for a tiny amount; the caller refuses it
 * (it is below the minimum anyway). Throws only on programming errors.
 */
export function priceQuote({ from, to, amountMinor, usdPrice }: QuoteInput): PricedQuote {
  if (from === to) throw new Error('priceQuote: from and to differ');
  if (amountMinor <= 0n) throw new Error('priceQuote: amount is positive');
  const fromUnit = 10n ** BigInt(coinDecimals(from));
  const toUnit = 10n ** BigInt(coinDecimals(to));
  if (isStablePair(from, to)) {
    const one = rational(1n);
    return {
      rate: one,
      feeMinor: 0n,
      // amount * 10^dTo / 10^dFrom, floored: exact whenever the amount has no digits below the
      // target unit (the service refuses such dust for a stable pair).
      receiveMinor: (amountMinor * toUnit) / fromUnit,
      ...limits(from, one),
    };
  }
  const fromUsd = usdPrice(from);
  const mid = div(fromUsd, usdPrice(to));
  const rate = mul(mid, rational(BPS - SPREAD_BPS, BPS));
  const feeMinor = ceilTimes(rational(FEE_BPS, BPS), amountMinor);
  const netMinor = amountMinor - feeMinor;
  const receiveMinor = netMinor > 0n ? floorTimes(mul(rate, rational(toUnit, fromUnit)), netMinor) : 0n;
  return { rate, feeMinor, receiveMinor, ...limits(from, fromUsd) };
}

/** For a stable pair into fewer decimals: the amount must not carry digits the target cannot hold. */
export function stableDustMinor(from: CoinCode, to: CoinCode, amountMinor: bigint): bigint {
  const drop = coinDecimals(from) - coinDecimals(to);
  return drop > 0 ? amountMinor % 10n ** BigInt(drop) : 0n;
}
