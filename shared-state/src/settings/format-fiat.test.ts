import { describe, expect, it } from 'vitest';
import { formatFiat, formatFiatDecimal, minorToDecimal } from './format-fiat.ts';

describe('minorToDecimal', () => {
  it('splits minor units with integer arithmetic', () => {
    expect(minorToDecimal(12345n, 2)).toBe('123.45');
    expect(minorToDecimal(5n, 2)).toBe('0.05');
    expect(minorToDecimal(-5n, 2)).toBe('-0.05');
    expect(minorToDecimal(0n, 2)).toBe('0.00');
    expect(minorToDecimal(1500n, 0)).toBe('1500');
  });
});

describe('formatFiat', () => {
  it('formats minor units in the currency and locale', () => {
    expect(formatFiat(12345n, 'USD', 'en')).toBe('$123.45');
    expect(formatFiat(100n, 'EUR', 'en')).toBe('€1.00');
    expect(formatFiat(1500n, 'JPY', 'en')).toBe('¥1,500');
    expect(formatFiat(-250n, 'USD', 'en')).toBe('-$2.50');
  });

  it('keeps every digit of amounts beyond the float range', () => {
    // 2^63 + 1 cents: a float would round the last digits away.
    expect(formatFiat(9223372036854775809n, 'USD', 'en')).toBe('$92,233,720,368,547,758.09');
  });

  it('follows the locale conventions', () => {
    expect(formatFiat(1234567n, 'EUR', 'es')).toMatch(/^12\.345,67\s€$/);
    expect(formatFiat(123456n, 'CNY', 'zh-CN')).toBe('¥1,234.56');
  });
});

describe('formatFiatDecimal', () => {
  it('formats decimal strings exactly', () => {
    expect(formatFiatDecimal('100.00', 'USD', 'en')).toBe('$100.00');
    expect(formatFiatDecimal('999999999.99', 'USD', 'en')).toBe('$999,999,999.99');
    expect(formatFiatDecimal('1500.00', 'JPY', 'en')).toBe('¥1,500');
    expect(formatFiatDecimal('1500.50', 'JPY', 'en')).toBe('¥1,500.5');
  });
});
