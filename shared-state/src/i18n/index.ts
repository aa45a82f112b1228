import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE, type Language, languageFromPreferences } from './languages.ts';

// Only useTranslation: nothing renders <Trans>, and leaving it out keeps its HTML parser off the landing page.
export { useTranslation } from 'react-i18next';
export {
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGE_NAMES,
  LANGUAGES,
  type Language,
  languageFromPreferences,
} from './languages.ts';

/** localStorage key remembering the chosen language. */
export const LANGUAGE_STORAGE_KEY = 'lang';
const LANGUAGE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

function rememberLanguageCookie(language: Language): void {
  if (typeof document === 'undefined') return;
  if (document.cookie.split('; ').includes(`${LANGUAGE_COOKIE}=${language}`)) return;
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Firefox and older Safari.
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=${LANGUAGE_COOKIE_MAX_AGE_S}; samesite=lax`;
}

export type Bundle = Record<string, unknown>;
export type BundleLoader = (language: Language) => Promise<Bundle>;

const loaders = new Map<string, BundleLoader>();

/**
 * Every app (host and each remote) registers its own namespace with a loader
 * that imports the language's JSON lazily. i18next loads namespaces through
 * this backend, so a language change reloads the namespaces of every loaded
 * app and re-renders host and remotes together.
 */
export function registerNamespace(
  namespace: string,
  loader: BundleLoader,
  preloaded?: { language: Language; bundle: Bundle },
): void {
  loaders.set(namespace, loader);
  if (preloaded) i18n.addResourceBundle(preloaded.language, namespace, preloaded.bundle, true, false);
}

const registryBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const loader = loaders.get(namespace);
    if (!loader || !isLanguage(language)) {
      callback(new Error(`no translations for ${namespace}/${language}`), false);
      return;
    }
    loader(language).then(
      (bundle) => callback(null, bundle),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/** The user's explicit choice when there is one, else the browser's preferred languages. */
export function initialLanguage(): Language {
  let stored: string | null | undefined = null;
  try {
    stored = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // Storage unavailable: the browser's preference decides.
  }
  if (isLanguage(stored)) {
    // A choice made before the cookie existed: the next visit's page is picked by it.
    rememberLanguageCookie(stored);
    return stored;
  }
  const nav = globalThis.navigator;
  return languageFromPreferences(nav?.languages?.length ? nav.languages : nav?.language ? [nav.language] : []);
}

export const i18n = i18next.createInstance();

void i18n
  .use(registryBackend)
  .use(initReactI18next)
  .init({
    lng: initialLanguage(),
    supportedLngs: ['zh-CN', 'zh-TW', 'en', 'es'],
    // No silent fallback: a missing key is a bug, caught by the i18n tests.
    fallbackLng: false,
    load: 'currentOnly',
    ns: [],
    partialBundledLanguages: true,
    initAsync: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: true },
    returnNull: false,
  });

// The page's lang attribute follows the UI language (screen readers, fonts, hyphenation).
i18n.on('languageChanged', (language) => {
  if (typeof document !== 'undefined' && isLanguage(language)) document.documentElement.lang = language;
});
if (typeof document !== 'undefined') document.documentElement.lang = currentLanguage();

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

/** Switch every loaded app's language at once, and remember the choice. */
export async function changeLanguage(language: Language): Promise<void> {
  await i18n.changeLanguage(language);
  try {
    globalThis.localStorage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private mode: the choice lasts for this page load only.
  }
  rememberLanguageCookie(language);
}
