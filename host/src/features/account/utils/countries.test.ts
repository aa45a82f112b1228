import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, countryName, localisedCountries, searchCountries } from './countries.ts';

describe('countries', () => {
  it('holds the full ISO 3166-1 alpha-2 list', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
  });

  it('names countries in the current language', () => {
    expect(countryName('ES', 'en')).toBe('Spain');
    expect(countryName('ES', 'es')).toBe('España');
    expect(countryName('DE', 'zh-CN')).toBe('德国');
  });

  it('searches by localised name, English name or code', () => {
    const zh = localisedCountries('zh-CN');
    expect(searchCountries(zh, '德国').map((c) => c.code)).toEqual(['DE']);
    expect(searchCountries(zh, 'germany').map((c) => c.code)).toEqual(['DE']);
    expect(searchCountries(zh, 'de').map((c) => c.code)).toContain('DE');
    expect(searchCountries(zh, '')).toHaveLength(249);
  });
});
