import { describe, expect, it } from 'vitest';
import { dateRange } from './date-range.ts';

describe('dateRange', () => {
  it('covers whole local days, inclusive', () => {
    const range = dateRange('2026-01-02', '2026-01-02');
    expect(range.invalid).toBe(false);
    const from = new Date(range.from ?? '');
    const to = new Date(range.to ?? '');
    expect(from.getHours()).toBe(0);
    expect(to.getTime() - from.getTime()).toBe(24 * 3600_000 - 1);
  });

  it('marks a start after the end as invalid and applies nothing', () => {
    expect(dateRange('2026-03-02', '2026-03-01')).toEqual({ invalid: true });
  });

  it('allows an open end on either side and ignores junk', () => {
    expect(dateRange('2026-03-02', '').to).toBeUndefined();
    expect(dateRange('', '2026-03-02').from).toBeUndefined();
    expect(dateRange('yesterday', '')).toEqual({ from: undefined, to: undefined, invalid: false });
  });
});
