import { formatMinor, localizeDecimal } from './amount.ts';

/** How a coin's amounts are shown (GET /api/catalogue `coins[]`). */
export interface CoinDisplay {
  /** The ledger's minor unit: 10^decimals minor units are one coin. */
  decimals: number;
  /** Fraction digits shown for an amount below one coin. */
  displayDecimals: number;
  /** Fraction digits shown for an amount of one coin or more. */
  displayDecimalsAtOne: number;
}

/** A coin the screen knows only the decimals of: shown in full. */
export function fullPrecision(decimals: number): CoinDisplay {
  return { decimals, displayDecimals: decimals, displayDecimalsAtOne: decimals };
}

/** A catalogue coin entry (GET /api/catalogue `coins[]`); display fields may be missing in old data. */
export interface CatalogueCoinDisplay {
  code: string;
  decimals: number;
  displayDecimals?: number;
  displayDecimalsAtOne?: number;
}

/** The display rule of `code` among catalogue coins; full precision when the catalogue has none. */
export function coinDisplay(code: string, coins: readonly CatalogueCoinDisplay[]): CoinDisplay {
  const coin = coins.find((c) => c.code === code);
  if (!coin) return fullPrecision(0);
  if (coin.displayDecimals === undefined || coin.displayDecimalsAtOne === undefined)
    return fullPrecision(coin.decimals);
  return {
    decimals: coin.decimals,
    displayDecimals: coin.displayDecimals,
    displayDecimalsAtOne: coin.displayDecimalsAtOne,
  };
}

/** Down (toward zero) for what the user has or gets; up (away from zero) for what they are charged. */
export type DisplayRounding = 'down' | 'up';

/**
 * Minor units cut to the coin's display precision, rounded toward zero by default: a balance is never
 * shown larger than it is ('up' for a charge: a fee is never shown smaller). Exact (bigint); trailing
 * zeros dropped. The caller writes it in a locale.
 */
export function displayMinor(minor: string | bigint, coin: CoinDisplay, rounding: DisplayRounding = 'down'): string {
  const value = typeof minor === 'bigint' ? minor : BigInt(minor);
  if (coin.displayDecimals > coin.decimals || coin.displayDecimalsAtOne > coin.displayDecimals) {
    throw new Error('displayMinor: display precision above the coin precision');
  }
  const unit = 10n ** BigInt(coin.decimals);
  const magnitude = value < 0n ? -value : value;
  const shown = magnitude >= unit ? coin.displayDecimalsAtOne : coin.displayDecimals;
  const step = 10n ** BigInt(coin.decimals - shown);
  // bigint division truncates toward zero, for negative amounts too.
  let cut = (value / step) * step;
  if (rounding === 'up' && cut !== value) cut += value < 0n ? -step : step;
  return formatMinor(cut, coin.decimals);
}

/** displayMinor written the locale's way: "1.234,56" in es. */
export function displayAmount(
  minor: string | bigint,
  coin: CoinDisplay,
  locale: string,
  rounding: DisplayRounding = 'down',
): string {
  return localizeDecimal(displayMinor(minor, coin, rounding), locale);
}

/** True when the display hides digits of this amount (the full value is worth a tap). */
export function isRounded(minor: string | bigint, coin: CoinDisplay): boolean {
  return displayMinor(minor, coin) !== formatMinor(minor, coin.decimals);
}
