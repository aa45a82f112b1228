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

/**
 * Minor units cut to the coin's display precision, rounded toward zero: a balance is never shown
 * larger than it is. Exact (bigint); trailing zeros dropped. The caller writes it in a locale.
 */
export function displayMinor(minor: string | bigint, coin: CoinDisplay): string {
  const value = typeof minor === 'bigint' ? minor : BigInt(minor);
  if (coin.displayDecimals > coin.decimals || coin.displayDecimalsAtOne > coin.displayDecimals) {
    throw new Error('displayMinor: display precision above the coin precision');
  }
  const unit = 10n ** BigInt(coin.decimals);
  const magnitude = value < 0n ? -value : value;
  const shown = magnitude >= unit ? coin.displayDecimalsAtOne : coin.displayDecimals;
  const step = 10n ** BigInt(coin.decimals - shown);
  // bigint division truncates toward zero, for negative amounts too.
  return formatMinor((value / step) * step, coin.decimals);
}

/** displayMinor written the locale's way: "1.234,56" in es. */
export function displayAmount(minor: string | bigint, coin: CoinDisplay, locale: string): string {
  return localizeDecimal(displayMinor(minor, coin), locale);
}

/** True when the display hides digits of this amount (the full value is worth a tap). */
export function isRounded(minor: string | bigint, coin: CoinDisplay): boolean {
  return displayMinor(minor, coin) !== formatMinor(minor, coin.decimals);
}
