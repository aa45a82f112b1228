import { describe, expect, it } from 'vitest';
import { displayAmount, displayMinor, fullPrecision, isRounded } from './display.ts';

const ETH = { decimals: 18, displayDecimals: 8, displayDecimalsAtOne: 8 };
const USDT = { decimals: 6, displayDecimals: 6, displayDecimalsAtOne: 2 };

describe('display precision', () => {
  it('cuts ETH to 8 decimals, rounding down (never more than the user has)', () => {
    expect(displayMinor('51661834245968354', ETH)).toBe('0.05166183');
    expect(displayMinor('59999999999999999', ETH)).toBe('0.05999999');
    expect(isRounded('51661834245968354', ETH)).toBe(true);
    expect(isRounded('50000000000000000', ETH)).toBe(false);
  });

  it('shows stablecoins in cents from one coin up, and up to 6 decimals below', () => {
    expect(displayMinor('1234567890', USDT)).toBe('1234.56');
    expect(displayMinor('999999', USDT)).toBe('0.999999');
    expect(displayMinor('1000000', USDT)).toBe('1');
    expect(displayAmount('1234567890', USDT, 'es')).toBe('1234,56');
    expect(displayAmount('12345678900', USDT, 'es')).toBe('12.345,67');
  });

  it('rounds a charge up, so a fee is never shown smaller than it is', () => {
    expect(displayMinor('1666666666666667', ETH, 'up')).toBe('0.00166667');
    expect(displayMinor('1660000000000000', ETH, 'up')).toBe('0.00166');
  });

  it('rounds toward zero for negative amounts too', () => {
    expect(displayMinor(-1234567890n, USDT)).toBe('-1234.56');
  });

  it('full precision when only the decimals are known', () => {
    expect(displayMinor('51661834245968354', fullPrecision(18))).toBe('0.051661834245968354');
  });

  it('refuses a display precision above the coin precision', () => {
    expect(() => displayMinor('1', { decimals: 2, displayDecimals: 4, displayDecimalsAtOne: 2 })).toThrow();
  });
});

describe('coinDisplay', () => {
  it("takes a catalogue coin's rule, and full precision when the catalogue has none (an older server)", async () => {
    const { coinDisplay } = await import('./display.ts');
    expect(coinDisplay('ETH', [{ code: 'ETH', decimals: 18, displayDecimals: 8, displayDecimalsAtOne: 8 }])).toEqual(
      ETH,
    );
    expect(coinDisplay('ETH', [{ code: 'ETH', decimals: 18 }])).toEqual(fullPrecision(18));
    expect(displayMinor('51661834245968354', coinDisplay('ETH', [{ code: 'ETH', decimals: 18 }]))).toBe(
      '0.051661834245968354',
    );
  });
});
