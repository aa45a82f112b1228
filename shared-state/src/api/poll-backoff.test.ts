import { describe, expect, it } from 'vitest';
import { pollWithBackoff } from './poll-backoff.ts';

const at = (data: unknown) => ({ state: { data, status: 'success' } });

describe('pollWithBackoff', () => {
  it('backs off while nothing changes and returns to the shortest wait on a change', () => {
    const next = pollWithBackoff(1_000, 8_000);
    const same = { items: [] };
    expect([next(at(same)), next(at(same)), next(at(same)), next(at(same)), next(at(same))]).toEqual([
      1_000, 2_000, 4_000, 8_000, 8_000,
    ]);
    expect(next(at({ items: [1] }))).toBe(1_000);
  });

  it('refuses a wait that is not positive', () => {
    expect(() => pollWithBackoff(0, 10)).toThrow();
  });
});
