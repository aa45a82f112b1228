import { describe, expect, it } from 'vitest';
import { areaCodes, defaultAreaCountry, searchAreaCodes } from './area-codes.ts';

describe('area codes', () => {
  it('lists every country with its calling code and a name in the language', () => {
    const en = areaCodes('en');
    expect(en.length).toBeGreaterThan(200);
    expect(en.find((a) => a.country === 'CN')).toEqual({ country: 'CN', code: '+86', name: 'China' });
    expect(areaCodes('es').find((a) => a.country === 'ES')?.name).toBe('España');
  });

  it('finds by name, country code or calling code', () => {
    const all = areaCodes('en');
    expect(searchAreaCodes(all, '+86').map((a) => a.country)).toContain('CN');
    expect(searchAreaCodes(all, 'brazil').map((a) => a.country)).toEqual(['BR']); // not Congo-Brazzaville's 'Braz…'
    expect(searchAreaCodes(all, 'in').map((a) => a.country)).toContain('IN');
  });

  it("defaults the area code to the account's country of residence (issue 30 item 8)", () => {
    expect(defaultAreaCountry('BR')).toBe('BR');
    expect(defaultAreaCountry('in')).toBe('IN');
    expect(defaultAreaCountry('')).toBe('');
    expect(defaultAreaCountry(null)).toBe('');
    expect(defaultAreaCountry('XX')).toBe('');
    expect(defaultAreaCountry('BRA')).toBe('');
  });
});
