import { describe, expect, it } from 'vitest';
import { countdown, formatMinor, parseAmount, shortRate } from './amount.ts';

describe('exchange amounts', () => {
  it('formats and parses minor units exactly, 18 decimals included', () => {
    expect(formatMinor('1234500', 6)).toBe('1.2345');
    expect(formatMinor('1', 18)).toBe('0.000000000000000001');
    expect(parseAmount('0.000000000000000001', 18)).toBe(1n);
    expect(parseAmount('100', 6)).toBe(100_000_000n);
    expect(parseAmount('1.1234567', 6)).toBeNull();
    expect(parseAmount('abc', 6)).toBeNull();
    expect(parseAmount('', 6)).toBeNull();
    expect(parseAmount('.5', 6)).toBe(500_000n);
  });

  it('counts down to the deadline and stops at zero', () => {
    const deadline = '2030-01-01T00:20:00.000Z';
    expect(countdown(deadline, Date.parse('2030-01-01T00:00:00.000Z'))).toEqual({ seconds: 1200, text: '20:00' });
    expect(countdown(deadline, Date.parse('2030-01-01T00:19:58.500Z'))).toEqual({ seconds: 2, text: '00:02' });
    expect(countdown(deadline, Date.parse('2030-01-01T00:21:00.000Z'))).toEqual({ seconds: 0, text: '00:00' });
  });

  it('shortens a rate to 8 significant fraction digits, truncating', () => {
    expect(shortRate('0.001113414653500095')).toBe('0.0011134146');
    expect(shortRate('1')).toBe('1');
    expect(shortRate('1234.56789012345')).toBe('1234.56789012');
    expect(shortRate('0.5000000000')).toBe('0.5');
  });
});
