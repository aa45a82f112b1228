/** A short "Browser · OS" label from a User-Agent string, or null if it names neither. */
export function deviceName(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browser = (
    [
      [/Edg\//, 'Edge'],
      [/OPR\/|Opera/, 'Opera'],
      [/Firefox\//, 'Firefox'],
      [/Chrome\/|CriOS\//, 'Chrome'],
      [/Safari\//, 'Safari'],
    ] as const
  ).find(([pattern]) => pattern.test(userAgent))?.[1];
  const os = (
    [
      [/Android/, 'Android'],
      [/iPhone|iPad|iPod/, 'iOS'],
      [/Windows/, 'Windows'],
      [/Mac OS X|Macintosh/, 'macOS'],
      [/Linux|X11/, 'Linux'],
    ] as const
  ).find(([pattern]) => pattern.test(userAgent))?.[1];
  const parts = [browser, os].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** Longest client name shown; a User-Agent is the caller's text. */
const CLIENT_NAME_MAX = 40;

/**
 * A program that is not a browser, from its User-Agent's first product token ("curl/8.4.0" ->
 * "curl 8.4.0", "okhttp/4.12" -> "okhttp 4.12"), or null when there is none.
 */
export function clientName(userAgent: string | null): string | null {
  const match = /^\s*([A-Za-z][\w.+-]*)(?:\/([\w.+-]+))?/.exec(userAgent ?? '');
  if (!match?.[1]) return null;
  return [match[1], match[2]].filter(Boolean).join(' ').slice(0, CLIENT_NAME_MAX);
}
