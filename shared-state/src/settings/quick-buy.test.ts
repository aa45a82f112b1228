import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkFiatAmount, FIAT_AMOUNT_PATTERN, isQuickBuyCoin } from './quick-buy.ts';

describe('checkFiatAmount', () => {
  it.each([
    ['100', '100.00'],
    ['99.5', '99.50'],
    [' 0100.25 ', '100.25'],
    ['1', '1.00'],
    ['999999999.99', '999999999.99'],
  ])('accepts %j as %j', (input, value) => {
    expect(checkFiatAmount(input)).toEqual({ ok: true, value });
  });

  it.each([
    ['', 'required'],
    ['   ', 'required'],
    ['abc', 'format'],
    ['1.234', 'format'],
    ['-5', 'format'],
    ['1e3', 'format'],
    ['1,000', 'format'],
    ['.5', 'format'],
    ['0.99', 'tooSmall'],
    ['0', 'tooSmall'],
    ['1000000000', 'tooLarge'],
  ])('rejects %j (%s)', (input, error) => {
    expect(checkFiatAmount(input)).toEqual({ ok: false, error });
  });

  it('every accepted value matches the server pattern', () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        const check = checkFiatAmount(input);
        return !check.ok || FIAT_AMOUNT_PATTERN.test(check.value);
      }),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: 100n, max: 99_999_999_999n }), (cents) => {
        const check = checkFiatAmount(`${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`);
        return check.ok && FIAT_AMOUNT_PATTERN.test(check.value);
      }),
    );
  });
});

describe('isQuickBuyCoin', () => {
  it('knows the four coins', () => {
    expect(['USDT', 'USDC', 'BTC', 'ETH'].every(isQuickBuyCoin)).toBe(true);
    expect(isQuickBuyCoin('DOGE')).toBe(false);
  });
});
