import { describe, expect, it } from 'vitest';
import { acceptedLanguages, prerenderedPage, requestLanguage } from './prerendered-page.ts';

const PHONE =
  'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

describe('the pre-rendered landing page for a request', () => {
  it('reads Accept-Language best first, by q then by order, without refused and wildcard tags', () => {
    expect(acceptedLanguages('en;q=0.5, es-ES, zh-CN;q=0.9, fr;q=0, *;q=0.1')).toEqual(['es-ES', 'zh-CN', 'en']);
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(acceptedLanguages(Array.from({ length: 500 }, () => 'de').join(','))).toHaveLength(20);
  });

  it('takes the remembered choice (cookie) over the browser, and the browser over the default', () => {
    expect(requestLanguage('en', 'zh-CN')).toBe('en');
    expect(requestLanguage('klingon', 'es-MX,es;q=0.9')).toBe('es');
    expect(requestLanguage(undefined, 'zh-HK')).toBe('zh-TW');
    expect(requestLanguage(undefined, 'fr-FR, de')).toBe('zh-CN');
    expect(requestLanguage(undefined, undefined)).toBe('zh-CN');
  });

  it('names the page of a phone in its language, and none for a desktop browser or a deeper path', () => {
    const request = { pathname: '/signIn', userAgent: PHONE, languageCookie: undefined, acceptLanguage: 'zh-CN' };
    expect(prerenderedPage(request)).toBe('prerendered/zh-CN/signIn.html');
    expect(prerenderedPage({ ...request, acceptLanguage: 'en-US,en' })).toBe('prerendered/en/signIn.html');
    expect(prerenderedPage({ ...request, userAgent: DESKTOP })).toBeNull();
    expect(prerenderedPage({ ...request, userAgent: undefined })).toBeNull();
    for (const pathname of ['/', '/a/b', '/..', '/%2e%2e', '/sign.In', `/${'a'.repeat(41)}`]) {
      expect(prerenderedPage({ ...request, pathname }), pathname).toBeNull();
    }
  });
});
