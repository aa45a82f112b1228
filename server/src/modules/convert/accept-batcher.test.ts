import { describe, expect, it } from 'vitest';
import { inFlightShare } from './accept-batcher.ts';

describe('an instance share of the database batches in flight (API_INSTANCES)', () => {
  it('splits the database-wide number among the instances, at least one each', () => {
    expect([1, 2, 3, 4, 16].map((n) => inFlightShare(2, n))).toEqual([2, 1, 1, 1, 1]);
    expect([1, 2, 3, 4].map((n) => inFlightShare(8, n))).toEqual([8, 4, 3, 2]);
    expect(inFlightShare(2)).toBe(2);
  });

  it('refuses a count of instances below one', () => {
    expect(() => inFlightShare(2, 0)).toThrow(/instances/);
    expect(() => inFlightShare(2, 1.5)).toThrow(/instances/);
  });
});
