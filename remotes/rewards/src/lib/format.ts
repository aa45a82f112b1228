/** A timestamp in the reader's language, to the minute. Empty for a missing or bad value. */
export function formatTime(iso: string | null | undefined, language: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'short' }).format(date);
}

/** A UTC day ('2026-11-25') as the reader writes a date, without moving it to their time zone. */
export function formatDay(day: string, language: string): string {
  const date = new Date(`${day}T12:00:00Z`);
  return new Intl.DateTimeFormat(language, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(date);
}
