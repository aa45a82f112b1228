import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import type { EvmChainRuntime } from '../chain/chain-config.ts';
import { createMoonPayClient, type MoonPayClient } from './moonpay/client.ts';
import { completeSettledSells, expireAbandoned, failBrokenTransfers } from './provider-events.ts';
import type { RampConfig } from './ramp-config.ts';
import { type SandboxRamp, startSandboxRamp } from './sandbox/sandbox-server.ts';
import { claimDueSellAlerts } from './sell-alerts.ts';
import { repairFailedSells } from './sell-repair.ts';

interface Log {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/**
 * Server start-up of the ramp: the MoonPay adapter (live when configured; else the embedded sandbox
 * provider on loopback, which needs the local chains and is refused in production), and the sweep
 * that expires abandoned checkouts (releasing a sell's lock) and fails sells whose transfer failed.
 */
export async function startRamp(options: {
  config: RampConfig;
  chains: () => Partial<Record<EvmNetwork, EvmChainRuntime | undefined>>;
  localChains: boolean;
  production: boolean;
  log: Log;
}): Promise<{ provider: () => MoonPayClient | null; sandbox: SandboxRamp | null }> {
  const { config, log } = options;
  if (config.moonpay) {
    const client = createMoonPayClient({ ...config.moonpay, kind: 'live' });
    log.info({ url: new URL(config.moonpay.apiUrl).origin }, 'payment provider: MoonPay');
    return { provider: () => client, sandbox: null };
  }
  if (options.production || !options.localChains) {
    log.warn({}, 'payment provider: none (set MOONPAY_API_URL and keys); buy and sell are unavailable');
    return { provider: () => null, sandbox: null };
  }
  const keys = config.sandboxKeys;
  const sandbox = await startSandboxRamp({ chains: options.chains, ...keys, log: (msg) => log.warn({}, msg) });
  const client = createMoonPayClient({
    apiUrl: sandbox.url,
    buyWidgetUrl: `${sandbox.url}/buy`,
    sellWidgetUrl: `${sandbox.url}/sell`,
    ...keys,
    kind: 'sandbox',
  });
  log.info({ url: sandbox.url }, 'payment provider: sandbox (MoonPay API on loopback)');
  return { provider: () => client, sandbox };
}

/**
 * The sweep, every `intervalMs` (RAMP_SWEEP_INTERVAL_MS, default 5 s): expires abandoned checkouts and
 * notices sells whose transfer settled or failed after the provider's last word.
 */
export function startRampSweep(
  db: Kysely<Database>,
  now: () => Date,
  log: Log,
  intervalMs: number,
): { close: () => Promise<void> } {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = (async () => {
      try {
        await repairFailedSells(db, now());
        await expireAbandoned(db, now());
        await failBrokenTransfers(db, now());
        await completeSettledSells(db, now());
        // Claimed in the database (migration 0043): one instance logs each alert, again hourly while open.
        for (const o of await claimDueSellAlerts(db, now()))
          log.error({ order: o }, `ramp ALERT (${o.kind}): sell needs an operator (npm run ops -- ramp alerts)`);
      } catch (err) {
        log.warn({ err }, 'ramp sweep failed; retrying');
      } finally {
        running = null;
      }
    })();
  }, intervalMs);
  timer.unref();
  return {
    close: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
