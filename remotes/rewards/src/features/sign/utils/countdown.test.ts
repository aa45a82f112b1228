import { describe, expect, it } from 'vitest';
import { untilNextDay } from './countdown.ts';

describe('next check-in countdown', () => {
  it('counts hours and minutes to the next UTC day, rounding minutes up', () => {
    const now = Date.parse('2026-11-25T18:47:30Z');
    expect(untilNextDay('2026-11-26T00:00:00.000Z', now)).toEqual({ hours: 5, minutes: 13 });
    expect(untilNextDay('2026-11-26T00:00:00.000Z', Date.parse('2026-11-26T00:00:01Z'))).toEqual({
      hours: 0,
      minutes: 0,
    });
  });
});
