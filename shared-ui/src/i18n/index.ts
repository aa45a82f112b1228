import { type Bundle, i18n, type Language, registerNamespace, useTranslation } from '@cw/shared-state/i18n';
import zhCN from './locales/zh-CN.json';

/** shared-ui's own i18n namespace. */
export const UI_NAMESPACE = 'ui';

const loaders: Record<Language, () => Promise<Bundle>> = {
  'zh-CN': async () => zhCN,
  'zh-TW': () => import('./locales/zh-TW.json').then((m) => m.default),
  en: () => import('./locales/en.json').then((m) => m.default),
  es: () => import('./locales/es.json').then((m) => m.default),
};

// zh-CN (the default language) is bundled; the others load on demand. This
// module is a federation singleton, so the namespace is registered once.
registerNamespace(UI_NAMESPACE, (language) => loaders[language](), { language: 'zh-CN', bundle: zhCN });

/** `t` bound to the 'ui' namespace (suspends while a language loads). */
export function useUiTranslation() {
  return useTranslation(UI_NAMESPACE);
}

/** Translate outside React: loads the namespace for the current language first. */
export async function translateUi(key: string, options?: Record<string, unknown>): Promise<string> {
  await i18n.loadNamespaces(UI_NAMESPACE);
  return i18n.t(key, { ns: UI_NAMESPACE, ...options });
}
