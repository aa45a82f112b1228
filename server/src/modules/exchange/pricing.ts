import {
  type CoinCode,
  type CoinNetwork,
  coinDecimals,
  findCoinNetwork,
  type NetworkCode,
} from '../catalogue/catalogue.ts';

/**
 * Exchange arithmetic, pure and exact (bigint). Rounding favours the platform: the amount received
 * rounds DOWN, the service charge rounds UP, so no order creates value.
 *
 * A rate is `rateScaled`: whole receive coins per whole send coin, times RATE_SCALE.
 */
export const RATE_SCALE = 10n ** 18n;
const BPS = 10_000n;
/** A fixed rate holds this long (spec: 20 minutes); the order's deposit deadline is the lock's expiry. */
export const FIXED_WINDOW_MS = 20 * 60_000;
/**
 * A float order waits this long for its deposit, then expires (EXCHANGE_FLOAT_WINDOW_MS): each open
 * order is a watched address, so none stays open for ever.
 */
export const FLOAT_WINDOW_MS = 24 * 3_600_000;
/**
 * After its deadline an expired order's address is still watched this long (EXCHANGE_LATE_DEPOSIT_WATCH_MS):
 * a deposit that arrives then is refunded (to the refund address, or whole to the wallet without one).
 */
export const LATE_DEPOSIT_WATCH_MS = 7 * 24 * 3_600_000;

/** Expired orders whose deadline is after this are still watched for a late deposit. */
export function lateWatchSince(now: Date, lateWatchMs: number): Date {
  return new Date(now.getTime() - lateWatchMs);
}

/**
 * An order expires by the chain head's time; when that head is unknown (a network with no runtime, an
 * RPC down, a scanner stuck), by the wall clock once this long past its deadline. Safe: a deposit mined
 * before the deadline is still honoured after the expiry (expired -> confirming).
 */
export const EXPIRY_WALL_CLOCK_MARGIN_MS = 30 * 60_000;

/** Service charge on the receive amount; a fixed rate costs more because we carry the price risk. */
export const SERVICE_CHARGE_BPS = { float: 50n, fixed: 100n } as const;
/** A float order is refunded when the rate at confirmation is this much worse than the estimate. */
export const FLOAT_TOLERANCE_BPS = 200n;
/** Order limits in USD value of the coin sent. */
export const MIN_USD = 10n;
export const MAX_USD = 50_000n;
const STABLECOINS: ReadonlySet<CoinCode> = new Set<CoinCode>(['USDT', 'USDC', 'TUSD']);

export type RateType = 'float' | 'fixed';

/** Exact price (num/den) of one whole coin in USD; throws PRICE_UNAVAILABLE when stale or missing. */
export interface UsdPrices {
  price(coin: CoinCode, currency: 'USD'): { readonly num: bigint; readonly den: bigint };
}

export interface Side {
  coin: CoinCode;
  network: NetworkCode;
}

/** USD price of a coin; stablecoins are 1 by definition (the spec's 1:1). */
function usd(coin: CoinCode, prices: UsdPrices): { num: bigint; den: bigint } {
  if (STABLECOINS.has(coin)) return { num: 1n, den: 1n };
  const p = prices.price(coin, 'USD');
  if (p.num <= 0n || p.den <= 0n) throw new Error(`non-positive price of ${coin}`);
  return p;
}

/** Mid rate: send USD price / receive USD price, floored at RATE_SCALE precision. */
export function midRateScaled(send: CoinCode, receive: CoinCode, prices: UsdPrices): bigint {
  const s = usd(send, prices);
  const r = usd(receive, prices);
  const rate = (s.num * r.den * RATE_SCALE) / (s.den * r.num);
  return rate > 0n ? rate : 1n;
}

export interface ReceiveBreakdown {
  grossMinor: bigint;
  serviceChargeMinor: bigint;
  networkFeeMinor: bigint;
  /** gross - charge - network fee, never below 0. */
  receiveMinor: bigint;
}

export function receiveFor(
  sendMinor: bigint,
  rateScaled: bigint,
  send: Side,
  receive: Side,
  rateType: RateType,
): ReceiveBreakdown {
  if (sendMinor <= 0n || rateScaled <= 0n) throw new Error('receiveFor: positive amount and rate');
  const sendUnit = 10n ** BigInt(coinDecimals(send.coin));
  const receiveUnit = 10n ** BigInt(coinDecimals(receive.coin));
  const grossMinor = (sendMinor * rateScaled * receiveUnit) / (sendUnit * RATE_SCALE);
  const bps = SERVICE_CHARGE_BPS[rateType];
  const serviceChargeMinor = (grossMinor * bps + BPS - 1n) / BPS;
  const networkFeeMinor = findCoinNetwork(receive.coin, receive.network)?.withdrawFeeMinor ?? 0n;
  const net = grossMinor - serviceChargeMinor - networkFeeMinor;
  return { grossMinor, serviceChargeMinor, networkFeeMinor, receiveMinor: net > 0n ? net : 0n };
}

/** Limits in minor units of the coin sent: [max(min deposit, MIN_USD worth), MAX_USD worth]. */
export function limitsFor(send: CoinNetwork, prices: UsdPrices): { minMinor: bigint; maxMinor: bigint } {
  const unit = 10n ** BigInt(coinDecimals(send.coin));
  const p = usd(send.coin, prices);
  const minByValue = (MIN_USD * p.den * unit + p.num - 1n) / p.num;
  const maxMinor = (MAX_USD * p.den * unit) / p.num;
  return { minMinor: minByValue > send.minDepositMinor ? minByValue : send.minDepositMinor, maxMinor };
}

/** True when `actual` is worse than `estimate` by more than the tolerance (better is always fine). */
export function movedBeyondTolerance(estimateScaled: bigint, actualScaled: bigint): boolean {
  return actualScaled * BPS < estimateScaled * (BPS - FLOAT_TOLERANCE_BPS);
}

/** "1234.5" from a scaled rate, truncated to 18 decimals, trailing zeros dropped. */
export function formatRate(rateScaled: bigint): string {
  const whole = rateScaled / RATE_SCALE;
  const fraction = (rateScaled % RATE_SCALE).toString().padStart(18, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}
