import { describe, expect, it } from 'vitest';
import { coerceSettings, DEFAULT_SETTINGS } from './schema.ts';

describe('coerceSettings', () => {
  it('keeps valid fields', () => {
    const value = {
      language: 'es',
      priceColor: 'red-up',
      fiatCurrency: 'BRL',
      quickBuy: { enabled: true, coin: 'BTC', fiatAmount: '250.5' },
    };
    expect(coerceSettings(value)).toEqual({ ...value, quickBuy: { ...value.quickBuy, fiatAmount: '250.50' } });
  });

  it('replaces missing or invalid fields with the fallback', () => {
    expect(coerceSettings(null)).toEqual(DEFAULT_SETTINGS);
    expect(
      coerceSettings({ language: 'fr', priceColor: 'blue', fiatCurrency: 'XXX', quickBuy: { fiatAmount: '0' } }),
    ).toEqual(DEFAULT_SETTINGS);
    expect(coerceSettings({ priceColor: 'red-up' })).toEqual({ ...DEFAULT_SETTINGS, priceColor: 'red-up' });
  });
});
