import { isMobileUserAgent } from '@cw/shared-state/device';
import { isLanguage, LANGUAGE_COOKIE, type Language, languageFromPreferences } from '@cw/shared-state/languages';

export { LANGUAGE_COOKIE };

/**
 * The landing screens are also built as static HTML (scripts/lib/prerender.ts), in the phone layout:
 * `host/prerendered/<language>/<screen>.html`, which paints the form before any script has run and which
 * the app then hydrates. A page is served only to a browser that will render exactly that markup: a phone
 * whose UI language is the page's. Anyone else gets the plain index.html, as before.
 */
export const PRERENDERED_DIR = 'prerendered';

/** At most this many Accept-Language entries are read (the header is the client's to make long). */
const MAX_LANGUAGE_TAGS = 20;

/** One screen name, as the host's routes are (`/signIn`, `/login`): nothing that could leave the folder. */
const SCREEN_PATH = /^\/([A-Za-z]{1,40})$/;

/** Accept-Language's tags, best first (by q, then by order), without those refused (q=0). */
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .slice(0, MAX_LANGUAGE_TAGS)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/** The language the front end will start in: the remembered choice (its cookie), else the browser's. */
export function requestLanguage(cookie: string | undefined, acceptLanguage: string | undefined): Language {
  if (isLanguage(cookie)) return cookie;
  return languageFromPreferences(acceptedLanguages(acceptLanguage));
}

export interface PageRequest {
  pathname: string;
  userAgent: string | undefined;
  languageCookie: string | undefined;
  acceptLanguage: string | undefined;
}

/** The pre-rendered page for this request, relative to the host folder, or null (serve index.html). */
export function prerenderedPage(request: PageRequest): string | null {
  const screen = SCREEN_PATH.exec(request.pathname)?.[1];
  if (!screen || !isMobileUserAgent(request.userAgent ?? '')) return null;
  const language = requestLanguage(request.languageCookie, request.acceptLanguage);
  return `${PRERENDERED_DIR}/${language}/${screen}.html`;
}
