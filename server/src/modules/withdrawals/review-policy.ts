import { type CoinCode, coinCodes, coinDecimals, minor } from '../catalogue/catalogue.ts';

/**
 * Automatic review: a withdrawal is approved without an operator when the user's withdrawals of the
 * same coin in the last 24 hours (this one included; rejected and failed ones not counted) stay at or
 * under the coin's limit. Above it, it waits in_review for `npm run ops -- withdrawals approve|reject`.
 * Limits are per coin in whole-coin amounts, so no price feed is needed; override with
 * WITHDRAW_AUTO_REVIEW_LIMITS="USDT=5000,ETH=2" (0 sends every withdrawal of that coin to manual review).
 */
export const AUTO_REVIEW_WINDOW_MS = 24 * 3_600_000;

const defaultLimits: Record<CoinCode, string> = {
  BTC: '0.5',
  ETH: '10',
  USDT: '10000',
  USDC: '10000',
  TUSD: '10000',
  TRX: '100000',
  BNB: '30',
  DOGE: '100000',
};

export type AutoReviewLimits = Record<CoinCode, bigint>;

export function autoReviewLimits(overrides: Partial<Record<CoinCode, string>> = {}): AutoReviewLimits {
  const out = {} as AutoReviewLimits;
  for (const coin of coinCodes) out[coin] = minor(overrides[coin] ?? defaultLimits[coin], coinDecimals(coin));
  return out;
}

/** Parses "USDT=5000,ETH=2"; throws on an unknown coin or a malformed amount. */
export function parseAutoReviewLimits(text: string): Partial<Record<CoinCode, string>> {
  const out: Partial<Record<CoinCode, string>> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .slice(0, coinCodes.length)) {
    const [coin = '', amount = ''] = part.split('=').map((s) => s.trim());
    if (!(coinCodes as readonly string[]).includes(coin)) throw new Error(`unknown coin ${coin}`);
    minor(amount, coinDecimals(coin as CoinCode));
    out[coin as CoinCode] = amount;
  }
  return out;
}
