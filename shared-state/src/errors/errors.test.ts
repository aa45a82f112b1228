/// <reference types="node" />
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.ts';
import { LANGUAGES } from '../i18n/languages.ts';
import { CLIENT_ERROR_CODES, SERVER_ERROR_CODES } from './codes.ts';
import { errorMessage, waitInWords } from './index.ts';
import en from './locales/en.json';
import es from './locales/es.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const bundles: Record<string, Record<string, string>> = { 'zh-CN': zhCN, 'zh-TW': zhTW, en, es };

/** The server's closed ErrorCode union: the keys of `errorStatus` in server/src/errors/codes.ts. */
function serverCodes(): string[] {
  const source = readFileSync(path.join(ROOT, 'server/src/errors/codes.ts'), 'utf8');
  const table = /export const errorStatus = \{([\s\S]*?)\}/.exec(source)?.[1] ?? '';
  return [...table.matchAll(/^\s*([A-Z][A-Z0-9_]*):\s*\d{3}/gm)].map((m) => m[1] ?? '');
}

/** The ErrorCode enum of the generated OpenAPI document, when it exists. */
function openApiCodes(): string[] {
  const file = path.join(ROOT, 'shared-state/src/api/openapi.json');
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  const codes = new Set<string>();
  for (const m of text.matchAll(/"enum":\s*\[([^\]]*)\]/g)) {
    const values = [...(m[1] ?? '').matchAll(/"([A-Z][A-Z0-9_]+)"/g)].map((v) => v[1] ?? '');
    if (values.includes('VALIDATION_FAILED')) for (const v of values) codes.add(v);
  }
  return [...codes];
}

async function translator(language: string) {
  const i18n = createInstance();
  await i18n.init({
    lng: language,
    resources: { [language]: { errors: bundles[language] ?? {} } },
    fallbackLng: false,
  });
  return i18n.t;
}

describe('error translations', () => {
  it('reads the server codes', () => {
    expect(serverCodes()).toContain('VALIDATION_FAILED');
    expect(serverCodes().length).toBeGreaterThan(10);
  });

  it('knows every code of the server ErrorCode union (codes.ts and the OpenAPI document)', () => {
    const known = new Set<string>(SERVER_ERROR_CODES);
    const missing = [...new Set([...serverCodes(), ...openApiCodes()])].filter((code) => !known.has(code));
    expect(missing).toEqual([]);
  });

  it.each(LANGUAGES)('%s translates every known code and fallback', (language) => {
    const bundle = bundles[language] ?? {};
    const required = [...SERVER_ERROR_CODES, ...CLIENT_ERROR_CODES, 'SUBMIT_FAILED', 'REGISTRATION_FAILED'];
    expect(required.filter((code) => !bundle[code]?.trim())).toEqual([]);
    expect(Object.keys(bundle).sort()).toEqual(Object.keys(zhCN).sort());
  });

  it('maps codes, retry times and attempts to messages', async () => {
    const t = await translator('en');
    expect(errorMessage(new ApiError({ code: 'WRONG_PASSWORD', message: 'x', status: 400 }), t)).toBe('Wrong password');
    expect(errorMessage(new ApiError({ code: 'NETWORK_ERROR', message: 'x', status: 0 }), t)).toBe(
      'Network error, try again later',
    );
    expect(errorMessage(new ApiError({ code: 'SERVICE_UNAVAILABLE', message: 'x', status: 503 }), t)).toBe(
      'Service communication failed',
    );
    const soon = new ApiError({
      code: 'CODE_RESEND_TOO_SOON',
      message: 'x',
      status: 429,
      details: { retryAfterSeconds: 42 },
    });
    expect(errorMessage(soon, t)).toBe('Please wait 42 s before requesting a new code');
    const hourly = new ApiError({
      code: 'CODE_RATE_LIMITED',
      message: 'x',
      status: 429,
      details: { retryAfterSeconds: 2990 },
    });
    expect(errorMessage(hourly, t)).toBe('Too many codes requested, try again in 50 min');
    const limited = (retryAfterSeconds: number) =>
      new ApiError({ code: 'RATE_LIMITED', message: 'x', status: 429, details: { retryAfterSeconds } });
    expect(errorMessage(limited(30), t, undefined, 'en')).toBe('Too many requests, try again in 30 seconds');
    expect(errorMessage(limited(150), t, undefined, 'en')).toBe('Too many requests, try again in 3 minutes');
    expect(errorMessage(new ApiError({ code: 'RATE_LIMITED', message: 'x', status: 429 }), t)).toBe(
      'Too many requests, try again later',
    );
    // An allowlist hold names when it ends (issue 31).
    const held = new ApiError({
      code: 'ADDRESS_ALLOWLIST_HOLD',
      message: 'x',
      status: 423,
      details: { retryAfterSeconds: 3600, until: '2030-01-03T03:04:05.000Z' },
    });
    const expectedUntil = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date('2030-01-03T03:04:05.000Z'),
    );
    expect(errorMessage(held, t, undefined, 'en')).toBe(
      `This trusted address is on hold until ${expectedUntil} (usable in 60 minutes)`,
    );
    const bounded = new ApiError({
      code: 'EXCHANGE_TOO_MANY_OPEN_ORDERS',
      message: 'x',
      status: 409,
      details: { limit: 5 },
    });
    expect(errorMessage(bounded, t)).toBe('You already have 5 unpaid orders: pay one or let it expire first');
    const wrong = new ApiError({
      code: 'WRONG_FUND_PASSWORD',
      message: 'x',
      status: 400,
      details: { attemptsLeft: 3 },
    });
    expect(errorMessage(wrong, t)).toBe('Wrong fund password, 3 attempts left');
    expect(errorMessage(new Error('boom'), t, 'REGISTRATION_FAILED')).toBe('Registration failed');
    expect(errorMessage(new ApiError({ code: 'SOMETHING_NEW', message: 'x', status: 400 }), t)).toBe('Submit failed');
  });

  it('says a wait in words in every language', () => {
    expect(waitInWords(30, 'en')).toBe('in 30 seconds');
    expect(waitInWords(30, 'zh-CN')).toBe('30秒钟后');
    expect(waitInWords(120, 'zh-TW')).toBe('2 分鐘後');
    expect(waitInWords(7200, 'es')).toBe('dentro de 2 horas');
    expect(waitInWords(0.2, 'en')).toBe('in 1 second');
  });

  it('speaks the default language', async () => {
    const t = await translator('zh-CN');
    expect(errorMessage(new ApiError({ code: 'EMAIL_EXISTS', message: 'x', status: 409 }), t)).toBe('邮箱已存在');
  });
});
