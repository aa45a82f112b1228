/**
 * The history's date filter: two calendar days (yyyy-mm-dd from date inputs)
 * in the reader's time zone, turned into an inclusive range of instants.
 */
export interface DateRange {
  from?: string;
  to?: string;
  /** Start after end: the filter is not applied and the screen says why. */
  invalid: boolean;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function localDay(text: string, endOfDay: boolean): Date | null {
  const match = DAY.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const date = endOfDay ? new Date(year, month, day, 23, 59, 59, 999) : new Date(year, month, day, 0, 0, 0, 0);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function dateRange(startDay: string, endDay: string): DateRange {
  const from = localDay(startDay, false);
  const to = localDay(endDay, true);
  if (from && to && from > to) return { invalid: true };
  return { from: from?.toISOString(), to: to?.toISOString(), invalid: false };
}
