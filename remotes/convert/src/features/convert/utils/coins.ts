import type { CatalogueCoin } from '@cw/shared-state/catalogue';

/** A coin one can convert: its code, ledger decimals and display precision, as the server catalogue gives them. */
export type ConvertCoinInfo = Pick<CatalogueCoin, 'code' | 'decimals'> &
  Partial<Pick<CatalogueCoin, 'displayDecimals' | 'displayDecimalsAtOne'>>;
export type ConvertCoin = CatalogueCoin['code'];

/** The 1:1 stablecoins: a swap among them is typed in the smaller of the two decimals. */
const STABLE = new Set<string>(['USDT', 'USDC', 'TUSD']);

export function isConvertCoin(value: unknown, coins: readonly ConvertCoinInfo[]): value is ConvertCoin {
  return typeof value === 'string' && coins.some((c) => c.code === value);
}

/** Ledger decimals of a coin; 0 for a code the catalogue does not list. */
export function decimalsOf(code: string, coins: readonly ConvertCoinInfo[]): number {
  return coins.find((c) => c.code === code)?.decimals ?? 0;
}

/** Digits the amount field accepts: a 1:1 swap into fewer decimals takes whole target units only. */
export function inputDecimals(from: ConvertCoin, to: ConvertCoin, coins: readonly ConvertCoinInfo[]): number {
  const own = decimalsOf(from, coins);
  return STABLE.has(from) && STABLE.has(to) ? Math.min(own, decimalsOf(to, coins)) : own;
}

/** Case-insensitive search on the code, in catalogue order. */
export function filterCoins(query: string, coins: readonly ConvertCoinInfo[]): ConvertCoin[] {
  const q = query.trim().toUpperCase();
  return coins.map((c) => c.code).filter((code) => code.includes(q));
}
