import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDecimalInput } from './decimal.ts';
import { localeSeparators, parseLocaleDecimal } from './locale-decimal.ts';

const LOCALES = ['zh-CN', 'zh-TW', 'en', 'es'] as const;

describe('parseLocaleDecimal (issue 40 item 4)', () => {
  it.each([
    ['es', '1,5', '1.5'],
    ['es', '1.000,5', '1000.5'],
    ['es', '1.000.000', '1000000'],
    ['es', '0,001', '0.001'],
    ['es', '12.345.678,25', '12345678.25'],
    ['es', '1.5', '1.5'],
    ['es', '12.', '12.'],
    ['es', ',5', '0.5'],
    ['en', '1,000', '1000'],
    ['en', '1,000.25', '1000.25'],
    ['en', '1.5', '1.5'],
    ['en', '0.001', '0.001'],
    ['en', '007', '7'],
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
    // A leading 0 group is never how a number is grouped: read as 1, a pasted "0,001" was 1000x too large.
    ['en', '0,001'],
    ['en', '0,001.5'],
    ['en', '012,345'],
    ['en', '00,100'],
    ['zh-CN', '0,500'],
    ['zh-TW', '0,001,000'],
    ['es', '0.001,5'],
    // Spanish: a lone point before exactly three digits is 1000x apart whether it groups or is a keypad
    // decimal point (and Intl es never writes 1.000): refused, not guessed.
    ['es', '0.001'],
    ['es', '1.000'],
    ['es', '12.345'],
    ['es', '123.456'],
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
          // es writes 12345 as "12.345", which a keypad user means as 12.345: the one shape refused.
          if (locale === 'es' && /^\d{1,3}\.\d{3}$/.test(shown))
            expect(parseLocaleDecimal(shown, locale)).toEqual({ ok: false, reason: 'separator' });
          else expect(parseLocaleDecimal(shown, locale)).toEqual({ ok: true, value: plain });
        },
      ),
    );
  });

  it('accepts a grouped amount only as Intl groups it (wrong groupings are refused, never read)', () => {
    // Strings Intl never writes: any mix of digit runs (leading zeros too) and separators. Whatever is
    // accepted must be plain digits, or its integer part exactly as Intl groups that integer, so a
    // misplaced separator can never turn into a number 1000x too large or too small.
    const pieces = (locale: string) => {
      const { decimal, group } = localeSeparators(locale);
      return fc.oneof(fc.stringMatching(/^0{0,2}\d{1,4}$/), fc.constant(group), fc.constant(decimal), fc.constant('.'));
    };
    fc.assert(
      fc.property(
        fc
          .constantFrom(...LOCALES)
          .chain((locale) => fc.tuple(fc.constant(locale), fc.array(pieces(locale), { minLength: 1, maxLength: 7 }))),
        ([locale, parts]) => {
          const raw = parts.join('');
          const read = parseLocaleDecimal(raw, locale);
          if (!read.ok) return;
          const [integerDigits = '', fraction] = read.value.split('.');
          const tail = fraction === undefined ? '' : fraction;
          const { decimal } = localeSeparators(locale);
          const separatorLength = fraction === undefined ? 0 : 1;
          const integerText = raw.slice(0, raw.length - tail.length - separatorLength);
          if (fraction !== undefined) expect([decimal, '.']).toContain(raw.at(-tail.length - 1));
          expect(raw.endsWith(tail)).toBe(true);
          const plain = /^\d*$/.test(integerText) && BigInt(integerText || '0') === BigInt(integerDigits || '0');
          const grouped =
            integerText === new Intl.NumberFormat(locale, { useGrouping: 'always' }).format(BigInt(integerDigits));
          expect(plain || grouped, `${locale} ${JSON.stringify(raw)} read as ${read.value}`).toBe(true);
          if (locale === 'es') expect(raw).not.toMatch(/^\d+\.\d{3}$/);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses every leading-zero group and every group not of three, in all four languages', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LOCALES),
        fc.oneof(fc.stringMatching(/^0\d{0,2}$/), fc.stringMatching(/^[1-9]\d{3,5}$/)),
        fc.array(fc.stringMatching(/^\d{3}$/), { minLength: 1, maxLength: 3 }),
        fc.option(fc.stringMatching(/^\d{1,4}$/)),
        (locale, first, rest, fraction) => {
          const { decimal, group } = localeSeparators(locale);
          const raw = [first, ...rest].join(group) + (fraction === null ? '' : `${decimal}${fraction}`);
          expect(parseLocaleDecimal(raw, locale), raw).toEqual({ ok: false, reason: 'separator' });
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
