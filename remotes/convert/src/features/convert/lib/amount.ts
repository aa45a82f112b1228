/**
 * Amounts on the wire are decimal strings of minor units; screens show decimal text. Only bigint
 * and strings: an 18-decimal token never loses a digit to a float.
 */
const INPUT_DIGITS_MAX = 78;

/** "1234500" with 6 decimals -> "1.2345" (trailing zeros dropped). */
export function formatMinor(minor: string | bigint, decimals: number): string {
  const value = typeof minor === 'bigint' ? minor : BigInt(minor);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** "1.5" with 6 decimals -> 1500000n; null for anything else or too many fraction digits. */
export function parseAmount(text: string, decimals: number): bigint | null {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > INPUT_DIGITS_MAX) return null;
  const match = /^(\d*)(?:\.(\d*))?$/.exec(trimmed);
  if (!match || (match[1] === '' && (match[2] ?? '') === '')) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) return null;
  return BigInt(`${match[1] || '0'}${fraction.padEnd(decimals, '0')}`);
}

/** A rate for display: at most `digits` significant fraction digits after leading zeros. */
export function shortRate(rate: string, digits = 8): string {
  const [whole = '0', fraction = ''] = rate.split('.');
  if (!fraction) return whole;
  const lead = whole === '0' ? (/^0*/.exec(fraction)?.[0].length ?? 0) : 0;
  const cut = fraction.slice(0, lead + digits).replace(/0+$/, '');
  return cut ? `${whole}.${cut}` : whole;
}

/** Seconds left until `iso`, never below 0. */
export function secondsLeft(iso: string, nowMs: number): number {
  return Math.max(0, Math.ceil((Date.parse(iso) - nowMs) / 1000));
}
