/**
 * A rate for display: `digits` significant digits (default 8), truncated. The whole part is never cut
 * ("89550" stays); leading zeros of a small rate do not count ("0.000011166945").
 */
export function shortRate(rate: string, digits = 8): string {
  const [whole = '0', fraction = ''] = rate.split('.');
  if (!fraction) return whole;
  const significantWhole = whole.replace(/^0+/, '').length;
  const lead = significantWhole === 0 ? (/^0*/.exec(fraction)?.[0].length ?? 0) : 0;
  const keep = lead + Math.max(0, digits - significantWhole);
  const cut = fraction.slice(0, keep).replace(/0+$/, '');
  return cut ? `${whole}.${cut}` : whole;
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
