/**
 * Amounts on the wire are decimal strings of minor units; screens show decimal text. bigint and
 * strings only: an 18-decimal coin never loses a digit to a float.
 */
const INPUT_DIGITS_MAX = 40;

/** "1234500" with 6 decimals -> "1.2345". */
export function formatMinor(minor: string | bigint, decimals: number): string {
  const value = typeof minor === 'bigint' ? minor : BigInt(minor);
  const digits = value.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** "1.5" with 6 decimals -> 1500000n; null for anything else (too many decimals, junk, empty). */
export function parseAmount(text: string, decimals: number): bigint | null {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > INPUT_DIGITS_MAX) return null;
  const match = /^(\d*)(?:\.(\d*))?$/.exec(trimmed);
  if (!match || (match[1] === '' && (match[2] ?? '') === '')) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) return null;
  return BigInt(`${match[1] || '0'}${fraction.padEnd(decimals, '0')}`);
}

/** "mm:ss" of the seconds left until `deadline` (never negative). */
export function countdown(deadline: string, nowMs: number): { seconds: number; text: string } {
  const seconds = Math.max(0, Math.ceil((Date.parse(deadline) - nowMs) / 1000));
  const mm = Math.floor(seconds / 60)
    .toString()
    .padStart(2, '0');
  const ss = (seconds % 60).toString().padStart(2, '0');
  return { seconds, text: `${mm}:${ss}` };
}

/** A rate for display: `digits` significant fraction digits after any leading zeros (truncated). */
export function shortRate(rate: string, digits = 8): string {
  const [whole = '0', fraction = ''] = rate.split('.');
  if (!fraction) return whole;
  const lead = whole === '0' ? (/^0*/.exec(fraction)?.[0].length ?? 0) : 0;
  const cut = fraction.slice(0, lead + digits).replace(/0+$/, '');
  return cut ? `${whole}.${cut}` : whole;
}
