import { ConfigError } from '../../config.ts';
import type { MoonPayConfig } from './moonpay/client.ts';

/**
 * The ramp's settings. With no MOONPAY_API_URL the embedded sandbox provider on loopback is used
 * (development and tests; it needs the local chains and is refused in production); with it, the
 * real MoonPay API and widgets, keys from MOONPAY_PUBLISHABLE_KEY / MOONPAY_SECRET_KEY /
 * MOONPAY_WEBHOOK_KEY.
 */
export interface RampConfig {
  /** null: the embedded sandbox (its URLs are known once it listens). */
  moonpay: Omit<MoonPayConfig, 'kind'> | null;
  sandboxKeys: { publishableKey: string; secretKey: string; webhookKey: string };
  /** The specification's "minimum payment amount for INR payments", in paise. */
  inrMinimumMinor: bigint;
  quoteTtlMs: number;
  /** A placed order not taken to the provider's checkout within this window expires. */
  checkoutWindowMs: number;
  webhookToleranceS: number;
  /**
   * How often the ramp sweep runs (expires abandoned checkouts, completes sells held for their transfer,
   * fails broken transfers, repairs old failures, logs alerts). Every step is keyed on stored times and
   * states, so a shorter interval only acts sooner.
   */
  sweepIntervalMs: number;
}

const int = (env: NodeJS.ProcessEnv, key: string, fallback: number, min: number, max: number): number => {
  const text = env[key];
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ConfigError([`${key} must be an integer in ${min}..${max}`]);
  return n;
};

export function rampConfigFromEnv(env: NodeJS.ProcessEnv): RampConfig {
  const apiUrl = env.MOONPAY_API_URL;
  const problems: string[] = [];
  let moonpay: RampConfig['moonpay'] = null;
  if (apiUrl) {
    const need = (key: string) => {
      const value = env[key];
      if (!value) problems.push(`${key} is required when MOONPAY_API_URL is set`);
      return value ?? '';
    };
    moonpay = {
      apiUrl,
      buyWidgetUrl: env.MOONPAY_BUY_WIDGET_URL ?? 'https://buy.moonpay.com',
      sellWidgetUrl: env.MOONPAY_SELL_WIDGET_URL ?? 'https://sell.moonpay.com',
      publishableKey: need('MOONPAY_PUBLISHABLE_KEY'),
      secretKey: need('MOONPAY_SECRET_KEY'),
      webhookKey: need('MOONPAY_WEBHOOK_KEY'),
    };
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    moonpay,
    sandboxKeys: { publishableKey: 'pk_test_sandbox', secretKey: 'sk_test_sandbox', webhookKey: 'wk_test_sandbox' },
    inrMinimumMinor: BigInt(int(env, 'RAMP_INR_MINIMUM', 1000, 1, 10_000_000)) * 100n,
    quoteTtlMs: int(env, 'RAMP_QUOTE_TTL_MS', 30_000, 5_000, 600_000),
    checkoutWindowMs: int(env, 'RAMP_CHECKOUT_WINDOW_MS', 30 * 60_000, 60_000, 86_400_000),
    webhookToleranceS: int(env, 'MOONPAY_WEBHOOK_TOLERANCE_S', 300, 10, 3600),
    sweepIntervalMs: int(env, 'RAMP_SWEEP_INTERVAL_MS', 5_000, 250, 60_000),
  };
}
