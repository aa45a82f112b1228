/** A rate for display: `digits` significant fraction digits after any leading zeros (truncated). */
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

/** "mm:ss" of the seconds left until `deadline` (never negative). */
export function countdown(deadline: string, nowMs: number): { seconds: number; text: string } {
  const seconds = secondsLeft(deadline, nowMs);
  const mm = Math.floor(seconds / 60)
    .toString()
    .padStart(2, '0');
  const ss = (seconds % 60).toString().padStart(2, '0');
  return { seconds, text: `${mm}:${ss}` };
}
