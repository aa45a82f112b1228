import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config.ts';
import { rampConfigFromEnv } from './ramp-config.ts';

describe('rampConfigFromEnv', () => {
  it('reads how often the ramp sweep runs (RAMP_SWEEP_INTERVAL_MS, default 5000, 250..60000)', () => {
    // The e2e server sweeps every second (playwright.config.ts); a deployment keeps 5 s.
    expect(rampConfigFromEnv({}).sweepIntervalMs).toBe(5000);
    expect(rampConfigFromEnv({ RAMP_SWEEP_INTERVAL_MS: '500' }).sweepIntervalMs).toBe(500);
    expect(rampConfigFromEnv({ RAMP_SWEEP_INTERVAL_MS: '250' }).sweepIntervalMs).toBe(250);
    for (const bad of ['10', '249', '60001', '1.5', 'soon']) {
      expect(() => rampConfigFromEnv({ RAMP_SWEEP_INTERVAL_MS: bad })).toThrow(ConfigError);
      expect(() => rampConfigFromEnv({ RAMP_SWEEP_INTERVAL_MS: bad })).toThrow(
        'RAMP_SWEEP_INTERVAL_MS must be an integer in 250..60000',
      );
    }
  });
});
