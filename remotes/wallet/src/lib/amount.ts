/**
 * Amounts on the wire are decimal strings of minor units; the screens show
 * and read decimal text. Conversions are done on bigint and strings only, so
 * an 18-decimal token never loses a digit to a float.
 */

const MAX_INPUT_DIGITS = 78;

/** "1234500" with 6 decimals -> "1.2345" (trailing zeros dropped). */
export function formatMinor(minor: string | bigint, decimals: number): string {
  const value = typeof minor === 'bigint' ? minor : BigInt(minor);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * "1.5" with 6 decimals -> 1500000n. Null for anything that is not a plain
 * non-negative decimal or has more fraction digits than the coin allows.
 */
export function parseAmount(text: string, decimals: number): bigint | null {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_INPUT_DIGITS) return null;
  const match = /^(\d*)(?:\.(\d*))?$/.exec(trimmed);
  if (!match || (match[1] === '' && (match[2] ?? '') === '')) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) return null;
  return BigInt(`${match[1] || '0'}${fraction.padEnd(decimals, '0')}`);
}

/** The larger of zero and a - b. */
export function minusOrZero(a: bigint, b: bigint): bigint {
  return a > b ? a - b : 0n;
}
