/**
 * The coins one can convert, with their ledger decimals (server catalogue, modules/catalogue).
 * Kept here as data because a quote is asked in minor units before any price is known.
 */
export const CONVERT_COINS = [
  { code: 'USDT', decimals: 6 },
  { code: 'USDC', decimals: 6 },
  { code: 'TUSD', decimals: 18 },
  { code: 'BTC', decimals: 8 },
  { code: 'ETH', decimals: 18 },
  { code: 'BNB', decimals: 18 },
  { code: 'TRX', decimals: 6 },
  { code: 'DOGE', decimals: 8 },
] as const;

export type ConvertCoin = (typeof CONVERT_COINS)[number]['code'];

const STABLE = new Set<string>(['USDT', 'USDC', 'TUSD']);

export function isConvertCoin(value: unknown): value is ConvertCoin {
  return typeof value === 'string' && CONVERT_COINS.some((c) => c.code === value);
}

export function decimalsOf(code: ConvertCoin): number {
  return CONVERT_COINS.find((c) => c.code === code)?.decimals ?? 0;
}

/** Digits the amount field accepts: a 1:1 swap into fewer decimals takes whole target units only. */
export function inputDecimals(from: ConvertCoin, to: ConvertCoin): number {
  const own = decimalsOf(from);
  return STABLE.has(from) && STABLE.has(to) ? Math.min(own, decimalsOf(to)) : own;
}

/** Case-insensitive search on the code. */
export function filterCoins(query: string): ConvertCoin[] {
  const q = query.trim().toUpperCase();
  return CONVERT_COINS.map((c) => c.code).filter((code) => code.includes(q));
}
