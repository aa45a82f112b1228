import { describe, expect, it } from 'vitest';
import { countdown, invertRate, secondsLeft, shortRate } from './rate.ts';

describe('shortRate', () => {
  it('keeps 6 significant digits (leading zeros not counted, the whole part never cut), truncating', () => {
    expect(shortRate('0.000011119361840312')).toBe('0.0000111193');
    expect(shortRate('0.001113414653500095')).toBe('0.00111341');
    expect(shortRate('89550')).toBe('89550');
    expect(shortRate('1')).toBe('1');
    expect(shortRate('1234.56789012345')).toBe('1234.56');
    expect(shortRate('3012.123456789')).toBe('3012.12');
    expect(shortRate('123456789.5')).toBe('123456789');
    expect(shortRate('0.5000000000')).toBe('0.5');
    expect(shortRate('0.000011166945840312', 8)).toBe('0.000011166945');
  });
});

describe('invertRate', () => {
  it('turns 1 USDT ≈ x BTC into 1 BTC ≈ 1/x USDT exactly', () => {
    expect(shortRate(invertRate('0.000011119361') ?? '')).toBe('89933.2');
    expect(invertRate('0.5')).toBe('2');
    expect(invertRate('4')).toBe('0.25');
    expect(invertRate('1')).toBe('1');
    expect(shortRate(invertRate('3') ?? '')).toBe('0.333333');
    expect(shortRate(invertRate('89550') ?? '')).toBe('0.0000111669');
    expect(shortRate(invertRate('0.000000000000000001') ?? '')).toBe('1000000000000000000');
  });

  it('refuses zero and what is not a plain decimal', () => {
    for (const bad of ['0', '0.000', '', '-1', '1e5', '1.', 'abc']) expect(invertRate(bad)).toBeNull();
  });
});

describe('secondsLeft and countdown', () => {
  it('counts whole seconds up and stops at zero', () => {
    expect(secondsLeft('2030-01-01T00:00:10.000Z', Date.parse('2030-01-01T00:00:00.500Z'))).toBe(10);
    expect(secondsLeft('2030-01-01T00:00:10.000Z', Date.parse('2030-01-01T00:00:11.000Z'))).toBe(0);
  });

  it('writes mm:ss to the deadline', () => {
    const deadline = '2030-01-01T00:20:00.000Z';
    expect(countdown(deadline, Date.parse('2030-01-01T00:00:00.000Z'))).toEqual({ seconds: 1200, text: '20:00' });
    expect(countdown(deadline, Date.parse('2030-01-01T00:19:58.500Z'))).toEqual({ seconds: 2, text: '00:02' });
    expect(countdown(deadline, Date.parse('2030-01-01T00:21:00.000Z'))).toEqual({ seconds: 0, text: '00:00' });
    // A float order's 24-hour window counts in hours, not 1440 minutes.
    expect(countdown(deadline, Date.parse('2029-12-31T00:19:59.000Z'))).toEqual({ seconds: 86_401, text: '24:00:01' });
    expect(countdown(deadline, Date.parse('2029-12-31T23:20:00.000Z'))).toEqual({ seconds: 3600, text: '1:00:00' });
  });
});
