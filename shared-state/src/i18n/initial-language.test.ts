import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialLanguage, LANGUAGE_STORAGE_KEY } from './index.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
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
