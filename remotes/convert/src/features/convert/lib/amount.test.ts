import { describe, expect, it } from 'vitest';
import { formatMinor, parseAmount, secondsLeft, shortRate } from './amount.ts';
import { filterCoins, inputDecimals } from './coins.ts';

describe('amounts', () => {
  it('round-trips 18 decimals without loss', () => {
    expect(parseAmount('123.4567890123456789012', 18)).toBeNull();
    expect(parseAmount('123.456789012345678', 18)).toBe(123_456_789_012_345_678_000n);
    expect(formatMinor(123_456_789_012_345_678_000n, 18)).toBe('123.456789012345678');
    expect(parseAmount('.5', 6)).toBe(500_000n);
    expect(parseAmount('1e5', 6)).toBeNull();
  });

  it('shortens rates and counts down', () => {
    expect(shortRate('0.000011166945840312')).toBe('0.000011166945');
    expect(shortRate('89550')).toBe('89550');
    expect(secondsLeft('2030-01-01T00:00:10.000Z', Date.parse('2030-01-01T00:00:00.500Z'))).toBe(10);
    expect(secondsLeft('2030-01-01T00:00:10.000Z', Date.parse('2030-01-01T00:00:11.000Z'))).toBe(0);
  });

  it('limits a stable swap into fewer decimals to whole target units, and searches coins', () => {
    expect(inputDecimals('TUSD', 'USDT')).toBe(6);
    expect(inputDecimals('TUSD', 'BTC')).toBe(18);
    expect(filterCoins('us')).toEqual(['USDT', 'USDC', 'TUSD']);
  });
});
