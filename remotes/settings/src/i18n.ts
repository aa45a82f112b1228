import { type Bundle, type Language, registerNamespace } from '@cw/shared-state/i18n';

export const NAMESPACE = 'settings';

const loaders: Record<Language, () => Promise<Bundle>> = {
  'zh-CN': () => import('./locales/zh-CN.json').then((m) => m.default),
  'zh-TW': () => import('./locales/zh-TW.json').then((m) => m.default),
  en: () => import('./locales/en.json').then((m) => m.default),
  es: () => import('./locales/es.json').then((m) => m.default),
};

registerNamespace(NAMESPACE, (language) => loaders[language]());
