/**
 * UTC days as 'YYYY-MM-DD' (what PostgreSQL `date` columns read back as, with the pg type parser
 * set in db/create-db.ts) and as day numbers (unix time / 86400, the check-in contract's day).
 */
const DAY_MS = 86_400_000;

export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export function dayFromNumber(dayNumber: bigint | number): string {
  return new Date(Number(dayNumber) * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Start of the UTC day after `at`. */
export function nextDayStart(at: Date): Date {
  return new Date((Math.floor(at.getTime() / DAY_MS) + 1) * DAY_MS);
}

/**
 * Length of the streak of consecutive days ending at `lastDay` (or the day before it, so a streak
 * is not lost before today's check-in). `days` holds distinct days, any order.
 */
export function streakLength(days: readonly string[], today: string): number {
  const set = new Set(days);
  let day = set.has(today) ? today : addDays(today, -1);
  let n = 0;
  while (set.has(day) && n < 10_000) {
    n++;
    day = addDays(day, -1);
  }
  return n;
}
