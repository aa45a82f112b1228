/** Hours and minutes until `nextDayAt` (the next UTC day), at least 0. */
export function untilNextDay(nextDayAt: string, now: number): { hours: number; minutes: number } {
  const ms = Math.max(0, Date.parse(nextDayAt) - now);
  const totalMinutes = Math.ceil(ms / 60_000);
  return { hours: Math.floor(totalMinutes / 60), minutes: totalMinutes % 60 };
}

/** The local wall-clock time of the next UTC day's start, e.g. "08:00" in Shanghai. */
export function localTimeOf(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}
