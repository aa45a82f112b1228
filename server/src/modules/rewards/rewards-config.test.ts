import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config.ts';
import { rewardForStreakDay, rewardsConfigFromEnv } from './rewards-config.ts';

describe('rewards configuration', () => {
  it('reads the schedule in minor units, the last day repeating', () => {
    const config = rewardsConfigFromEnv({ REWARDS_SCHEDULE: '0.1, 1' });
    expect(config.scheduleMinor).toEqual([100_000n, 1_000_000n]);
    expect(rewardForStreakDay(config, 1)).toBe(100_000n);
    expect(rewardForStreakDay(config, 9)).toBe(1_000_000n);
    expect(rewardsConfigFromEnv({ NODE_ENV: 'production' }).seedPoolMinor).toBe(0n);
  });

  it('refuses bad settings with a configuration error naming the variable', () => {
    const message = (env: NodeJS.ProcessEnv) => {
      try {
        rewardsConfigFromEnv(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).issues[0];
      }
      return undefined;
    };
    expect(message({ REWARDS_SCHEDULE: '0.1,abc' })).toBe('REWARDS_SCHEDULE must be amounts of USDT (got "abc")');
    expect(message({ REWARDS_SCHEDULE: '0' })).toBe('REWARDS_SCHEDULE must be 1..31 positive amounts');
    expect(message({ REWARDS_ASSET: 'XYZ' })).toBe('REWARDS_ASSET must be a catalogue coin');
    expect(message({ LIKES_PER_DRAW: '0' })).toBe('LIKES_PER_DRAW must be an integer 1..100');
    // A streak longer than the look-back could never be counted (issue 36, item 12).
    expect(message({ STREAK_DAYS_FOR_DRAW: '63' })).toBe('STREAK_DAYS_FOR_DRAW must be an integer 1..62');
    expect(rewardsConfigFromEnv({ STREAK_DAYS_FOR_DRAW: '62' }).streakDaysForDraw).toBe(62);
  });
});
