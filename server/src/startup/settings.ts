import { type Config, ConfigError, loadConfig } from '../config.ts';
import { consoleConfigFromEnv } from '../http/console-listener.ts';
import { type MetricsConfig, metricsConfigFromEnv } from '../http/metrics-config.ts';
import { serializerModeFromEnv, setDefaultSerializerMode } from '../http/serializers.ts';
import { type RampConfig, rampConfigFromEnv } from '../modules/ramp/ramp-config.ts';
import { rewardsConfigFromEnv } from '../modules/rewards/rewards-config.ts';

/** The base configuration and the module-specific settings main.ts starts the server with. */
export type Settings = {
  config: Config;
  rewardsConfig: ReturnType<typeof rewardsConfigFromEnv>;
  rampConfig: RampConfig;
  metricsConfig: MetricsConfig;
  consoleConfig: ReturnType<typeof consoleConfigFromEnv>;
};

/**
 * Step 1 of main.ts: reads every setting from the environment. A bad one exits (status 1) naming the
 * variable; main-config-check.ts has already done so for the base configuration.
 */
export function loadSettings(): Settings {
  try {
    const config = loadConfig();
    const settings: Settings = {
      config,
      rewardsConfig: rewardsConfigFromEnv(process.env),
      rampConfig: rampConfigFromEnv(process.env),
      metricsConfig: metricsConfigFromEnv(process.env),
      consoleConfig: consoleConfigFromEnv(process.env, {
        nodeEnv: config.nodeEnv,
        publicOrigin: config.security.publicOrigin,
      }),
    };
    setDefaultSerializerMode(serializerModeFromEnv(process.env));
    return settings;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}
