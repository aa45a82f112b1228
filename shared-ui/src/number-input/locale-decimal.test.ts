import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDecimalInput } from './decimal.ts';
import { parseLocaleDecimal } from './locale-decimal.ts';

const LOCALES = ['zh-CN', 'zh-TW', 'en', 'es'] as const;

describe('parseLocaleDecimal (issue 40 item 4)', () => {
  it.each([
    ['es', '1,5', '1.5'],
    ['es', '1.000,5', '1000.5'],
    ['es', '1.000', '1000'],
    ['es', '12.345.678,25', '12345678.25'],
    ['es', '1.5', '1.5'],
    ['es', '12.', '12.'],
    ['es', ',5', '0.5'],
    ['en', '1,000', '1000'],
    ['en', '1,000.25', '1000.25'],
    ['en', '1.5', '1.5'],
    ['zh-CN', '1,234,567.5', '1234567.5'],
    ['zh-TW', '００７.５', '7.5'],
    ['en', '', ''],
  ])('%s: %j reads %j', (locale, raw, value) => {
    expect(parseLocaleDecimal(raw, locale)).toEqual({ ok: true, value });
  });

  it.each([
    // A Spanish field showing "1,5" and a typed "." (the probe: it became 15).
    ['es', '1,5.'],
    ['es', '1,5,3'],
    ['es', '1.00,5'],
    ['es', '1,000.5'],
    ['es', '1.5.3'],
    ['en', '1,5'],
    ['en', '1.5.3'],
    ['en', '1.000,5'],
    ['en', '1,00'],
    ['zh-CN', '1.2,3'],
  ])('%s: %j is refused, not reinterpreted', (locale, raw) => {
    expect(parseLocaleDecimal(raw, locale)).toEqual({ ok: false, reason: 'separator' });
  });

  it('refuses letters, signs and exponents', () => {
    for (const raw of ['1e5', '-5', '+1', '1a', '0x10', '1 000'])
      expect(parseLocaleDecimal(raw, 'en')).toMatchObject({ ok: false });
  });

  it('reads back every amount Intl.NumberFormat writes, grouped or not, in all four languages', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LOCALES),
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.stringMatching(/^\d{0,8}$/),
        fc.boolean(),
        (locale, integer, fraction, grouping) => {
          const plain = fraction === '' ? integer.toString() : `${integer}.${fraction}`;
          const format = new Intl.NumberFormat(locale, {
            useGrouping: grouping,
            minimumFractionDigits: fraction.length,
            maximumFractionDigits: Math.max(fraction.length, 0),
          });
          // A string keeps every digit (Intl.NumberFormat v3); a number would round.
          const shown = format.format(plain as unknown as number);
          expect(parseLocaleDecimal(shown, locale)).toEqual({ ok: true, value: plain });
        },
      ),
    );
  });

  it('never reads a second decimal separator as anything', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LOCALES),
        fc.stringMatching(/^\d{1,6}$/),
        fc.stringMatching(/^\d{0,4}$/),
        fc.stringMatching(/^\d{0,4}$/),
        (locale, a, b, c) => {
          const decimal = locale === 'es' ? ',' : '.';
          expect(parseLocaleDecimal(`${a}${decimal}${b}${decimal}${c}`, locale)).toMatchObject({ ok: false });
        },
      ),
    );
  });
});

describe('checkDecimalInput with a locale', () => {
  it('a Spanish "1,5" and a typed point is refused; the field keeps 1,5', () => {
    expect(checkDecimalInput('1,5.', 2, 'es')).toEqual({ ok: false, reason: 'separator' });
    expect(checkDecimalInput('1,5', 2, 'es')).toEqual({ ok: true, value: '1.5' });
  });

  it('English "1,000" is a thousand, not one', () => {
    expect(checkDecimalInput('1,000', 2, 'en')).toEqual({ ok: true, value: '1000' });
  });

  it('still refuses a fraction longer than the coin has', () => {
    expect(checkDecimalInput('1,123', 2, 'es')).toEqual({ ok: false, reason: 'decimals' });
    expect(checkDecimalInput('1.5', 0, 'en')).toEqual({ ok: false, reason: 'decimals' });
  });
});
