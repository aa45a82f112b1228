import { type Bundle, type Language, registerNamespace } from '@cw/shared-state/i18n';
import zhCN from './locales/zh-CN.json';

export const HOST_NAMESPACE = 'host';

const loaders: Record<Language, () => Promise<Bundle>> = {
  'zh-CN': async () => zhCN,
  'zh-TW': () => import('./locales/zh-TW.json').then((m) => m.default),
  en: () => import('./locales/en.json').then((m) => m.default),
  es: () => import('./locales/es.json').then((m) => m.default),
};

/** zh-CN (the default) ships inside the landing bundle; the others load on demand. */
export function registerHostTranslations(): void {
  registerNamespace(HOST_NAMESPACE, (language) => loaders[language](), { language: 'zh-CN', bundle: zhCN });
}
