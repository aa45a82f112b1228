import { describe, expect, it } from 'vitest';
import { languageFromPreferences } from './languages.ts';

describe('first-visit language from navigator.languages', () => {
  it.each([
    [['zh-TW'], 'zh-TW'],
    [['zh-HK', 'en'], 'zh-TW'],
    [['zh-Hant-TW'], 'zh-TW'],
    [['zh-MO'], 'zh-TW'],
    [['zh-CN'], 'zh-CN'],
    [['zh'], 'zh-CN'],
    [['zh-SG'], 'zh-CN'],
    [['es-MX', 'en'], 'es'],
    [['es'], 'es'],
    [['en-GB', 'es'], 'en'],
    [['fr-FR', 'es-ES'], 'es'],
    [['fr-FR', 'de'], 'zh-CN'],
    [[], 'zh-CN'],
  ] as const)('%j -> %s', (preferred, expected) => {
    expect(languageFromPreferences(preferred)).toBe(expected);
  });
});
