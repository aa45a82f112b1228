import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from './languages.ts';

export { Trans, useTranslation } from 'react-i18next';
export { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from './languages.ts';

/** localStorage key remembering the chosen language. */
export const LANGUAGE_STORAGE_KEY = 'lang';

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

function storedLanguage(): Language {
  try {
    const stored = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

export const i18n = i18next.createInstance();

void i18n
  .use(registryBackend)
  .use(initReactI18next)
  .init({
    lng: storedLanguage(),
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
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}
