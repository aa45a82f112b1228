import { describe, expect, it } from 'vitest';
import { formatMinor, minusOrZero, parseAmount } from './amount.ts';

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
