import type { TFunction } from 'i18next';
import { useCallback } from 'react';
import { ApiError, retryAfterSeconds } from '../api/api-error.ts';
import { type Bundle, type Language, registerNamespace, useTranslation } from '../i18n/index.ts';
import { type FallbackKey, type KnownErrorCode, knownCodesOf } from './codes.ts';
import zhCN from './locales/zh-CN.json';

export type { FallbackKey, KnownErrorCode } from './codes.ts';

const KNOWN = knownCodesOf(zhCN);

export function isKnownErrorCode(code: unknown): code is KnownErrorCode {
  return typeof code === 'string' && KNOWN.has(code);
}

/** The i18n namespace holding every error message. */
export const ERRORS_NAMESPACE = 'errors';

const loaders: Record<Language, () => Promise<Bundle>> = {
  'zh-CN': async () => zhCN,
  'zh-TW': () => import('./locales/zh-TW.json').then((m) => m.default),
  en: () => import('./locales/en.json').then((m) => m.default),
  es: () => import('./locales/es.json').then((m) => m.default),
};

// zh-CN (the default language) is bundled; the others load when chosen.
registerNamespace('errors', (language) => loaders[language](), { language: 'zh-CN', bundle: zhCN });

/** The translation key (in namespace 'errors') of a code: the code itself. */
export function errorKey(code: KnownErrorCode): string {
  return code;
}

function numberDetail(details: unknown, name: string): number | undefined {
  if (typeof details !== 'object' || details === null) return undefined;
  const value = (details as Record<string, unknown>)[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * The translated message for any thrown value: an ApiError by its code
 * (with retry time or attempts left when the server sent them), anything
 * else as the caller's fallback ("submit failed" unless told otherwise).
 * `t` must have the 'errors' namespace loaded (see useErrorMessage).
 */
export function errorMessage(error: unknown, t: TFunction, fallback: FallbackKey = 'SUBMIT_FAILED'): string {
  const ns = { ns: ERRORS_NAMESPACE };
  if (!(error instanceof ApiError) || !isKnownErrorCode(error.code)) return t(fallback, ns);
  const key = errorKey(error.code);
  const seconds = retryAfterSeconds(error);
  const attemptsLeft = numberDetail(error.details, 'attemptsLeft');
  const limit = numberDetail(error.details, 'limit');
  const keys = [key];
  if (attemptsLeft !== undefined) keys.unshift(`${key}_attempts`);
  if (seconds !== undefined) keys.unshift(`${key}_retry`);
  return t(keys, {
    ...ns,
    seconds,
    minutes: seconds === undefined ? undefined : Math.ceil(seconds / 60),
    attemptsLeft,
    limit,
  });
}

/** A hook returning `(error, fallback?) => message` in the current language. */
export function useErrorMessage(): (error: unknown, fallback?: FallbackKey) => string {
  const { t } = useTranslation(ERRORS_NAMESPACE);
  return useCallback((error: unknown, fallback?: FallbackKey) => errorMessage(error, t, fallback), [t]);
}
