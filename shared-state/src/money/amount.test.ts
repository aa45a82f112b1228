import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  delocalizeAmount,
  formatAmount,
  formatMinor,
  localizeDecimal,
  minusOrZero,
  numberSymbols,
  parseAmount,
} from './amount.ts';

describe('formatMinor', () => {
  it('places the point by the decimals and drops trailing zeros', () => {
    expect(formatMinor('1234500', 6)).toBe('1.2345');
    expect(formatMinor('1000000', 6)).toBe('1');
    expect(formatMinor('5', 6)).toBe('0.000005');
    expect(formatMinor(0n, 18)).toBe('0');
    expect(formatMinor('123456789012345678901234567890', 18)).toBe('123456789012.34567890123456789');
  });
});

describe('parseAmount', () => {
  it('reads decimals into minor units without floats', () => {
    expect(parseAmount('1.5', 6)).toBe(1_500_000n);
    expect(parseAmount('.5', 6)).toBe(500_000n);
    expect(parseAmount('2.', 6)).toBe(2_000_000n);
    expect(parseAmount('0.000000000000000001', 18)).toBe(1n);
    expect(parseAmount('123.456789012345678', 18)).toBe(123_456_789_012_345_678_000n);
    expect(formatMinor(123_456_789_012_345_678_000n, 18)).toBe('123.456789012345678');
    expect(parseAmount('123.4567890123456789012', 18)).toBeNull();
  });

  it('refuses junk and too many fraction digits', () => {
    expect(parseAmount('', 6)).toBeNull();
    expect(parseAmount('.', 6)).toBeNull();
    expect(parseAmount('1e3', 6)).toBeNull();
    expect(parseAmount('-1', 6)).toBeNull();
    expect(parseAmount('0.0000001', 6)).toBeNull();
    expect(parseAmount('9'.repeat(100), 6)).toBeNull();
  });

  it('round-trips with formatMinor', () => {
    for (const minor of [1n, 10n, 123_456_789n, 10n ** 30n + 7n]) {
      expect(parseAmount(formatMinor(minor, 18), 18)).toBe(minor);
    }
  });
});

describe('minusOrZero', () => {
  it('never goes below zero', () => {
    expect(minusOrZero(5n, 2n)).toBe(3n);
    expect(minusOrZero(2n, 5n)).toBe(0n);
  });
});

describe('numberSymbols', () => {
  it('reads the separators and grouping rule of each app language from Intl', () => {
    expect(numberSymbols('zh-CN')).toMatchObject({ decimal: '.', group: ',', minimumGroupingDigits: 1 });
    expect(numberSymbols('zh-TW')).toMatchObject({ decimal: '.', group: ',', minimumGroupingDigits: 1 });
    expect(numberSymbols('en')).toMatchObject({ decimal: '.', group: ',', minimumGroupingDigits: 1 });
    expect(numberSymbols('es')).toMatchObject({ decimal: ',', group: '.', minimumGroupingDigits: 2 });
    expect(numberSymbols('en-IN')).toMatchObject({ primaryGroupSize: 3, secondaryGroupSize: 2 });
  });
});

describe('formatAmount', () => {
  it('writes minor units with the locale separators (4 app languages)', () => {
    expect(formatAmount('1234500000', 6, 'zh-CN')).toBe('1,234.5');
    expect(formatAmount('1234500000', 6, 'zh-TW')).toBe('1,234.5');
    expect(formatAmount('1234500000', 6, 'en')).toBe('1,234.5');
    // es groups only from five integer digits on (CLDR minimum grouping digits 2).
    expect(formatAmount('1234500000', 6, 'es')).toBe('1234,5');
    expect(formatAmount('12345500000', 6, 'es')).toBe('12.345,5');
    expect(formatAmount('1500000', 6, 'es')).toBe('1,5');
    expect(formatAmount('5', 6, 'es')).toBe('0,000005');
    expect(formatAmount(0n, 18, 'es')).toBe('0');
    expect(formatAmount(-1234567891n, 3, 'en')).toBe('-1,234,567.891');
    expect(formatAmount('12345678', 0, 'en-IN')).toBe('1,23,45,678');
  });

  it('keeps every digit of an 18-decimal amount (no float on the way)', () => {
    expect(formatAmount('123456789012345678901234567890', 18, 'es')).toBe('123.456.789.012,34567890123456789');
    expect(formatAmount('123456789012345678901234567890', 18, 'zh-CN')).toBe('123,456,789,012.34567890123456789');
  });

  it('agrees with Intl where Intl is exact', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }),
        fc.constantFrom('zh-CN', 'zh-TW', 'en', 'es'),
        (minor, locale) => {
          expect(formatAmount(minor, 0, locale)).toBe(new Intl.NumberFormat(locale).format(minor));
        },
      ),
    );
  });
});

describe('localizeDecimal and delocalizeAmount', () => {
  it('puts input text into the locale form without grouping and reads it back', () => {
    expect(localizeDecimal('12345.25', 'es', { grouping: false })).toBe('12345,25');
    expect(localizeDecimal('12.', 'es', { grouping: false })).toBe('12,');
    expect(localizeDecimal('12345.25', 'en', { grouping: false })).toBe('12345.25');
    expect(delocalizeAmount('12345,25', 'es')).toBe('12345.25');
    expect(delocalizeAmount('1.5', 'es')).toBe('1.5');
    expect(delocalizeAmount('1,5', 'en')).toBe('1,5');
  });
});

describe('parseAmount with a locale', () => {
  it("accepts the locale's decimal separator as well as the point", () => {
    expect(parseAmount('1,5', 6, 'es')).toBe(1_500_000n);
    expect(parseAmount('1.5', 6, 'es')).toBe(1_500_000n);
    expect(parseAmount('1.5', 6, 'zh-CN')).toBe(1_500_000n);
    expect(parseAmount('1.5', 6, 'zh-TW')).toBe(1_500_000n);
    expect(parseAmount('1.5', 6, 'en')).toBe(1_500_000n);
    // In en the comma is a group separator, not a point: refused rather than misread.
    expect(parseAmount('1,5', 6, 'en')).toBeNull();
    expect(parseAmount('1,5,5', 6, 'es')).toBeNull();
  });

  it('round-trips with formatAmount when grouping is off', () => {
    for (const locale of ['zh-CN', 'zh-TW', 'en', 'es']) {
      for (const minor of [1n, 1_500_000n, 10n ** 30n + 7n]) {
        const text = localizeDecimal(formatMinor(minor, 18), locale, { grouping: false });
        expect(parseAmount(text, 18, locale)).toBe(minor);
      }
    }
  });
});
