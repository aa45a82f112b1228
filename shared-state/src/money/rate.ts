/** Significant digits of a rate on screen: what exchange apps show ("0.0000111193", "89,932.4"). */
export const RATE_SIGNIFICANT_DIGITS = 6;

/**
 * A rate for display: `digits` significant digits (default 6), truncated. The whole part is never cut
 * ("89550" stays); leading zeros of a small rate do not count ("0.0000111669").
 */
export function shortRate(rate: string, digits = RATE_SIGNIFICANT_DIGITS): string {
  const [whole = '0', fraction = ''] = rate.split('.');
  if (!fraction) return whole;
  const significantWhole = whole.replace(/^0+/, '').length;
  const lead = significantWhole === 0 ? (/^0*/.exec(fraction)?.[0].length ?? 0) : 0;
  const keep = lead + Math.max(0, digits - significantWhole);
  const cut = fraction.slice(0, keep).replace(/0+$/, '');
  return cut ? `${whole}.${cut}` : whole;
}

/** Decimals kept by invertRate before shortRate cuts to significant digits: enough for 1e-18 rates. */
const INVERT_SCALE = 36;

/**
 * 1 / rate, truncated to `scale` decimals, in exact integer arithmetic (a rate is a decimal string; a
 * float would print 89932.39999…). Null for zero or anything that is not a plain decimal.
 */
export function invertRate(rate: string, scale = INVERT_SCALE): string | null {
  if (!/^\d+(\.\d+)?$/.test(rate)) return null;
  const [whole = '0', fraction = ''] = rate.split('.');
  const numerator = BigInt(`${whole}${fraction}`);
  if (numerator === 0n) return null;
  const quotient = (10n ** BigInt(fraction.length + scale) / numerator).toString().padStart(scale + 1, '0');
  const inverseWhole = quotient.slice(0, -scale);
  const inverseFraction = quotient.slice(-scale).replace(/0+$/, '');
  return inverseFraction ? `${inverseWhole}.${inverseFraction}` : inverseWhole;
}

/** Seconds left until `iso`, never below 0. */
export function secondsLeft(iso: string, nowMs: number): number {
  return Math.max(0, Math.ceil((Date.parse(iso) - nowMs) / 1000));
}

/** "mm:ss" of the seconds left until `deadline` (never negative); "h:mm:ss" from an hour up (a float order's 24 h). */
export function countdown(deadline: string, nowMs: number): { seconds: number; text: string } {
  const seconds = secondsLeft(deadline, nowMs);
  const two = (n: number) => n.toString().padStart(2, '0');
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const mmss = `${two(minutes)}:${two(seconds % 60)}`;
  return { seconds, text: hours > 0 ? `${hours}:${mmss}` : mmss };
}
