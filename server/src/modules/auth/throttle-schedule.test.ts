import { describe, expect, it } from 'vitest';
import {
  accountLoginPolicy,
  afterFailure,
  attemptsLeft,
  fundPasswordPolicy,
  lockSecondsAfter,
  retryAfterSeconds,
  type ThrottleState,
} from './throttle-schedule.ts';

describe('login throttle schedule', () => {
  it('is free for 5 failures, then locks 30 s, doubling, capped at an hour', () => {
    const locks = Array.from({ length: 14 }, (_, i) => lockSecondsAfter(accountLoginPolicy, i + 1));
    expect(locks).toEqual([0, 0, 0, 0, 0, 30, 60, 120, 240, 480, 960, 1920, 3600, 3600]);
  });

  it('never allows 100 failures an hour to an attacker who retries as soon as allowed', () => {
    let state: ThrottleState | undefined;
    let t = 0;
    let failures = 0;
    const hour = 3_600_000;
    while (t < hour) {
      const now = new Date(t);
      const wait = retryAfterSeconds(state, now);
      if (wait > 0) {
        t += wait * 1000;
        continue;
      }
      state = afterFailure(accountLoginPolicy, state, now);
      failures += 1;
      t += 100;
    }
    expect(failures).toBeLessThan(100);
    expect(failures).toBeLessThanOrEqual(13);
  });

  it('starts afresh once the window since the first failure has passed', () => {
    const t0 = new Date('2030-01-01T00:00:00Z');
    let state = afterFailure(accountLoginPolicy, undefined, t0);
    state = afterFailure(accountLoginPolicy, state, new Date(t0.getTime() + 1000));
    expect(state.failures).toBe(2);
    const later = afterFailure(accountLoginPolicy, state, new Date(t0.getTime() + 24 * 3_600_000));
    expect(later.failures).toBe(1);
  });
});

describe('fund password schedule', () => {
  it('locks for an hour on the 5th wrong try within an hour; counts attempts left', () => {
    const t0 = new Date('2030-01-01T00:00:00Z');
    let state: ThrottleState | undefined;
    const left: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      state = afterFailure(fundPasswordPolicy, state, new Date(t0.getTime() + i * 60_000));
      left.push(attemptsLeft(fundPasswordPolicy, state, new Date(t0.getTime() + i * 60_000)));
      expect(state.lockedUntil).toBeNull();
    }
    expect(left).toEqual([4, 3, 2, 1]);
    const fifthAt = new Date(t0.getTime() + 10 * 60_000);
    state = afterFailure(fundPasswordPolicy, state, fifthAt);
    expect(retryAfterSeconds(state, fifthAt)).toBe(3600);
    expect(retryAfterSeconds(state, new Date(fifthAt.getTime() + 3_600_000))).toBe(0);
  });
});
