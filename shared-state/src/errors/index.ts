import type { TFunction } from 'i18next';
import { useCallback, useSyncExternalStore } from 'react';
import { ApiError, retryAfterSeconds } from '../api/api-error.ts';
import { setErrorTextsLoader } from '../api/unwrap.ts';
import { type Bundle, i18n, type Language, registerNamespace } from '../i18n/index.ts';
import type { FallbackKey, KnownErrorCode } from './codes.ts';

export type { FallbackKey, KnownErrorCode } from './codes.ts';

/** The i18n namespace holding every error message. */
export const ERRORS_NAMESPACE = 'errors';

/**
 * A code the UI has words for: one with a message in the errors namespace (errors.test.ts holds the
 * messages to SERVER_ERROR_CODES and CLIENT_ERROR_CODES, and those to the server's closed set). Read
 * from the messages rather than from a second list, so the list stays off the landing bundle.
 */
export function isKnownErrorCode(code: unknown): code is KnownErrorCode {
  return typeof code === 'string' && CODE_SHAPE.test(code) && i18n.exists(code, { ns: ERRORS_NAMESPACE });
}
const CODE_SHAPE = /^[A-Z][A-Z0-9_]*$/;

const loaders: Record<Language, () => Promise<Bundle>> = {
  'zh-CN': () => import('./locales/zh-CN.json').then((m) => m.default),
  'zh-TW': () => import('./locales/zh-TW.json').then((m) => m.default),
  en: () => import('./locales/en.json').then((m) => m.default),
  es: () => import('./locales/es.json').then((m) => m.default),
};

// Every language loads when first needed, zh-CN too: the landing page shows no error until the user acts.
registerNamespace('errors', (language) => loaders[language]());

/** Loads the messages of the current language (once: i18next remembers what it loaded). */
export function loadErrorTexts(): Promise<void> {
  return i18n.loadNamespaces(ERRORS_NAMESPACE).catch(() => undefined);
}

/** How long a failed request waits for the messages before it is reported anyway. */
const TEXTS_WAIT_MS = 3000;
setErrorTextsLoader(() => Promise.race([loadErrorTexts(), new Promise((r) => setTimeout(r, TEXTS_WAIT_MS))]));

// The first touch, key or focus starts loading them: after the first paint, before anything can fail.
if (typeof document !== 'undefined') {
  const start = () => {
    for (const type of STARTERS) document.removeEventListener(type, start, true);
    void loadErrorTexts();
  };
  const STARTERS = ['pointerdown', 'keydown', 'focusin'] as const;
  for (const type of STARTERS) document.addEventListener(type, start, { capture: true, passive: true });
}

// Screens showing a message re-render when the messages arrive or the language changes.
let textsVersion = 0;
const textsListeners = new Set<() => void>();
const textsChanged = () => {
  textsVersion += 1;
  for (const listener of textsListeners) listener();
};
i18n.on('loaded', textsChanged);
i18n.on('languageChanged', textsChanged);
const subscribeTexts = (listener: () => void) => {
  textsListeners.add(listener);
  return () => textsListeners.delete(listener);
};
const currentTextsVersion = () => textsVersion;

/** The translation key (in namespace 'errors') of a code: the code itself. */
export function errorKey(code: KnownErrorCode): string {
  return code;
}

function numberDetail(details: unknown, name: string): number | undefined {
  if (typeof details !== 'object' || details === null) return undefined;
  const value = (details as Record<string, unknown>)[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** details.until (when a hold ends) as a local date and time in the language, e.g. "27 Nov 2026, 14:05". */
function untilDetail(details: unknown, language: string): string | undefined {
  if (typeof details !== 'object' || details === null) return undefined;
  const value = (details as Record<string, unknown>).until;
  if (typeof value !== 'string') return undefined;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return undefined;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
}

/**
 * A wait in the language's own words, from the platform's CLDR data ("in 30 seconds", "30秒钟后",
 * "dentro de 2 minutos"): seconds under a minute and a half, then minutes, then hours, rounded up.
 */
export function waitInWords(seconds: number, language: string): string {
  const s = Math.max(1, Math.ceil(seconds));
  const [value, unit]: [number, Intl.RelativeTimeFormatUnit] =
    s < 90 ? [s, 'second'] : s < 90 * 60 ? [Math.ceil(s / 60), 'minute'] : [Math.ceil(s / 3600), 'hour'];
  return new Intl.RelativeTimeFormat(language, { numeric: 'always' }).format(value, unit);
}

/**
 * The translated message for any thrown value: an ApiError by its code
 * (with retry time or attempts left when the server sent them), anything
 * else as the caller's fallback ("submit failed" unless told otherwise).
 * `t` must have the 'errors' namespace loaded (see useErrorMessage); `language` words a wait.
 */
export function errorMessage(
  error: unknown,
  t: TFunction,
  fallback: FallbackKey = 'SUBMIT_FAILED',
  language: string = i18n.language,
): string {
  const ns = { ns: ERRORS_NAMESPACE };
  if (!(error instanceof ApiError) || !CODE_SHAPE.test(error.code)) return t(fallback, ns);
  const key = errorKey(error.code as KnownErrorCode);
  const seconds = retryAfterSeconds(error);
  const attemptsLeft = numberDetail(error.details, 'attemptsLeft');
  const limit = numberDetail(error.details, 'limit');
  const until = untilDetail(error.details, language);
  const keys = [key];
  if (attemptsLeft !== undefined) keys.unshift(`${key}_attempts`);
  if (seconds !== undefined) keys.unshift(`${key}_retry`);
  // A code without a message (unknown to this build) reads as the caller's fallback.
  const text = t(keys, {
    ...ns,
    defaultValue: '',
    seconds,
    minutes: seconds === undefined ? undefined : Math.ceil(seconds / 60),
    wait: seconds === undefined ? undefined : waitInWords(seconds, language),
    attemptsLeft,
    limit,
    until,
  });
  return text === '' ? t(fallback, ns) : text;
}

/**
 * A hook returning `(error, fallback?) => message` in the current language. It never suspends: the
 * messages load on the first interaction (and before any API failure is reported); a message asked
 * for before they are here starts the load, and the screen re-renders when they arrive.
 */
export function useErrorMessage(): (error: unknown, fallback?: FallbackKey) => string {
  const version = useSyncExternalStore(subscribeTexts, currentTextsVersion, currentTextsVersion);
  return useCallback(
    (error: unknown, fallback?: FallbackKey) => {
      void version;
      if (!i18n.hasLoadedNamespace(ERRORS_NAMESPACE)) void loadErrorTexts();
      return errorMessage(error, i18n.getFixedT(null, ERRORS_NAMESPACE), fallback);
    },
    [version],
  );
}

/**
 * The translated message of an error code checked in the browser, the same text the server's
 * refusal would show ("address invalid or mismatched with the network", "third-party payment only
 * in Brazil and India", ...).
 */
export function useCodeMessage(): (code: KnownErrorCode) => string {
  const message = useErrorMessage();
  return useCallback((code: KnownErrorCode) => message(new ApiError({ code, message: code, status: 400 })), [message]);
}
