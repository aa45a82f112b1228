import { describe, expect, it } from 'vitest';
import { currencyOptions, filterCurrencies } from './filter-currencies.ts';

const codes = (query: string, locale: string) =>
  filterCurrencies(currencyOptions(locale), query, locale).map((o) => o.code);

describe('filterCurrencies', () => {
  it('keeps everything for an empty query', () => {
    expect(codes('  ', 'en')).toHaveLength(30);
  });

  it('matches code, symbol and localised name, ignoring case and accents', () => {
    expect(codes('brl', 'en')).toEqual(['BRL']);
    expect(codes('₩', 'en')).toEqual(['KRW']);
    expect(codes('日元', 'zh-CN')).toEqual(['JPY']);
    expect(codes('peso colombiano', 'es')).toEqual(['COP']);
    expect(codes('REAL BRASILENO', 'es')).toEqual(['BRL']);
  });
});
