import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, i18n, initialLanguage, LANGUAGE_STORAGE_KEY } from './index.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  document.cookie = 'lang=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});

describe('initialLanguage', () => {
  it('takes the browser preference on a first visit', () => {
    vi.stubGlobal('navigator', { languages: ['es-AR', 'en'], language: 'es-AR' });
    expect(initialLanguage()).toBe('es');
  });

  it("keeps the user's explicit choice over the browser preference", () => {
    vi.stubGlobal('navigator', { languages: ['es-AR'], language: 'es-AR' });
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'zh-TW');
    expect(initialLanguage()).toBe('zh-TW');
  });
});

describe('the language cookie (the server picks the pre-rendered landing page by it)', () => {
  it('is written with the remembered choice, and for a choice made before the cookie existed', async () => {
    i18n.addResourceBundle('en', 'cookie-test', {}, true, true);
    await changeLanguage('en');
    expect(document.cookie).toContain('lang=en');
    await changeLanguage('zh-CN');
    expect(document.cookie).toContain('lang=zh-CN');

    document.cookie = 'lang=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'es');
    expect(initialLanguage()).toBe('es');
    expect(document.cookie).toContain('lang=es');
  });

  it('is not written for a browser that never chose', () => {
    vi.stubGlobal('navigator', { languages: ['en-GB'], language: 'en-GB' });
    expect(initialLanguage()).toBe('en');
    // No language cookie with a value (happy-dom may keep an emptied one as "lang=").
    expect(document.cookie).not.toMatch(/(?:^|;\s*)lang=[^;]/);
  });
});
