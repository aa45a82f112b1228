export const LANGUAGES = ['zh-CN', 'zh-TW', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';
/**
 * The cookie beside the remembered language choice: it tells the server the language the app will start
 * in, so that it serves a pre-rendered landing page only in that language (server/src/http/prerendered-page.ts).
 */
export const LANGUAGE_COOKIE = 'lang';

/** Each language's own name, shown in the language picker untranslated. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  'zh-CN': '简体中文',
  'zh-TW': '繁體中文',
  en: 'English',
  es: 'Español',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The app language for a browser's preferred languages (navigator.languages), first match wins:
 * zh-TW/zh-HK (and Hant) -> zh-TW, other zh -> zh-CN, es -> es, en -> en; nothing known -> zh-CN.
 */
export function languageFromPreferences(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    const [primary = ''] = lower.split(/[-_]/);
    if (primary === 'zh') return /(^|[-_])(tw|hk|mo|hant)($|[-_])/.test(lower) ? 'zh-TW' : 'zh-CN';
    if (primary === 'es') return 'es';
    if (primary === 'en') return 'en';
  }
  return DEFAULT_LANGUAGE;
}
