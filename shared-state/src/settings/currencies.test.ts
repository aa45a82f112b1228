import { describe, expect, it } from 'vitest';
import openapi from '../api/openapi.json';
import {
  FIAT_CURRENCIES,
  FIAT_CURRENCY_CODES,
  fiatCurrencyInfo,
  fiatCurrencyName,
  isFiatCurrency,
} from './currencies.ts';

/** The list the server accepts, as its generated OpenAPI document states it (kept current by a test). */
const SERVER_LIST = (
  openapi as unknown as {
    components: { schemas: { UserSettings: { properties: { fiatCurrency: { enum: string[] } } } } };
  }
).components.schemas.UserSettings.properties.fiatCurrency.enum;

describe('fiat currencies', () => {
  it('is the closed list the server accepts, in the same order', () => {
    expect(FIAT_CURRENCY_CODES).toEqual(SERVER_LIST);
  });

  it.each(FIAT_CURRENCIES)('$code: symbol and decimals agree with Intl.NumberFormat', ({ code, symbol, decimals }) => {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency: code });
    expect(format.resolvedOptions().maximumFractionDigits).toBe(decimals);
    expect(format.formatToParts(1).find((part) => part.type === 'currency')?.value).toBe(symbol);
  });

  it('knows its members', () => {
    expect(isFiatCurrency('JPY')).toBe(true);
    expect(isFiatCurrency('XYZ')).toBe(false);
    expect(isFiatCurrency(42)).toBe(false);
    expect(fiatCurrencyInfo('KRW')).toEqual({ code: 'KRW', symbol: '₩', decimals: 0 });
  });

  it('names currencies in the given language', () => {
    expect(fiatCurrencyName('USD', 'en')).toBe('US Dollar');
    expect(fiatCurrencyName('USD', 'zh-CN')).toBe('美元');
    expect(fiatCurrencyName('EUR', 'es')).toBe('euro');
  });
});
