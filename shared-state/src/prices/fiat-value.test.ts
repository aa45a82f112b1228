import { describe, expect, it } from 'vitest';
import { fiatValueMinor, parsePrice } from './fiat-value.ts';

describe('fiat values', () => {
  it('parses prices exactly', () => {
    expect(parsePrice('67187.33')).toBe(6_718_733_000_000n);
    expect(parsePrice('0.00000001')).toBe(1n);
    expect(parsePrice('1.123456789')).toBeNull();
    expect(parsePrice('1e5')).toBeNull();
  });

  it('values an 18-decimal amount to the cent, rounding down', () => {
    // 1.5 ETH at 3000.129 USD = 4500.1935 USD -> 450019 cents
    expect(fiatValueMinor(1_500_000_000_000_000_000n, 18, '3000.129', 2)).toBe(450_019n);
    // 1 satoshi at 90000 USD = 0.0009 USD -> 0 cents
    expect(fiatValueMinor(1n, 8, '90000', 2)).toBe(0n);
    // 1 USDT at 155 JPY (0 decimals)
    expect(fiatValueMinor(1_000_000n, 6, '155', 0)).toBe(155n);
  });
});
