/**
 * Fiat values of coin amounts, exact: prices arrive as decimal text with at most 8 decimals
 * (GET /api/prices), amounts as minor units; everything is bigint until Intl formats the result.
 */

export const PRICE_DECIMALS_MAX = 8;
const PRICE_SCALE = 10n ** BigInt(PRICE_DECIMALS_MAX);
const PRICE_TEXT = /^(\d{1,40})(?:\.(\d{1,8}))?$/;

/** "67187.33" -> 6718733000000n (10^-8 units). Null for anything that is not such a price. */
export function parsePrice(text: string): bigint | null {
  const match = PRICE_TEXT.exec(text);
  if (!match) return null;
  return BigInt(match[1] ?? '0') * PRICE_SCALE + BigInt((match[2] ?? '').padEnd(PRICE_DECIMALS_MAX, '0'));
}

/**
 * Value of `amountMinor` (in 10^-coinDecimals coins) at `price` (fiat per whole coin), in the fiat
 * currency's minor units, rounded DOWN (a balance is never shown as worth more than it is).
 */
export function fiatValueMinor(amountMinor: bigint, coinDecimals: number, price: string, fiatDecimals: number): bigint {
  const scaled = parsePrice(price);
  if (scaled === null) throw new Error(`not a price: ${price}`);
  if (amountMinor < 0n) return -fiatValueMinor(-amountMinor, coinDecimals, price, fiatDecimals);
  return (amountMinor * scaled * 10n ** BigInt(fiatDecimals)) / (10n ** BigInt(coinDecimals) * PRICE_SCALE);
}
