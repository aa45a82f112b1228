import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { EvmChainRuntime } from '../chain/chain-config.ts';
import type { EvmLogObserver } from '../chain/watcher.ts';
import { fundRewards } from '../ledger/operations.ts';
import { startRewardsBooker } from './booker.ts';
import { checkInObserver } from './check-in-observer.ts';
import type { RewardsConfig } from './rewards-config.ts';

/**
 * Server start-up of the rewards programme: the development pool (like convert liquidity: funded
 * once from system_external, never in production), the booker loop, and the check-in observers the
 * chain module attaches to the EVM watchers of networks with a check-in contract.
 */
export interface RewardsModule {
  observersFor(runtime: EvmChainRuntime): EvmLogObserver[];
  /** Seeds the pool (when configured) and starts the booker; call once the database is migrated. */
  start(db: Kysely<Database>, now?: () => Date): Promise<void>;
  stop(): Promise<void>;
}

/** How often the booker looks for unbooked rewards besides being nudged (invitees' first deposits). */
const BOOK_INTERVAL_MS = 2_000;

export async function seedRewardsPool(db: Kysely<Database>, config: RewardsConfig, at: Date): Promise<boolean> {
  if (config.seedPoolMinor <= 0n) return false;
  const posted = await db.transaction().execute((trx) =>
    fundRewards(
      trx,
      {
        idempotencyKey: `rewards:pool-seed:v1:${config.asset}`,
        asset: config.asset,
        amountMinor: config.seedPoolMinor,
      },
      at,
    ),
  );
  return posted.created;
}

export function createRewardsModule(options: {
  config: RewardsConfig;
  log: { warn(details: Record<string, unknown>, msg: string): void };
}): RewardsModule {
  let booker: ReturnType<typeof startRewardsBooker> | undefined;
  return {
    observersFor(runtime) {
      if (!runtime.checkInContract) return [];
      return [
        checkInObserver({
          network: runtime.network,
          contract: runtime.checkInContract,
          config: options.config,
          onConfirmed: () => booker?.nudge(),
        }),
      ];
    },
    async start(db, now = () => new Date()) {
      if (await seedRewardsPool(db, options.config, now())) {
        options.log.warn({ asset: options.config.asset }, 'development rewards pool seeded from system_external');
      }
      booker = startRewardsBooker({
        db,
        config: options.config,
        intervalMs: BOOK_INTERVAL_MS,
        now,
        onError: (err) => options.log.warn({ err }, 'rewards booking failed; retrying'),
        onPoolShort: (assets) =>
          options.log.warn(
            { assets },
            'ALERT: the rewards pool cannot pay these assets: their bookings wait until it is funded (others go on)',
          ),
        onRowFailures: (failures) =>
          options.log.warn(
            { failures },
            'ALERT: rewards bookings failed and were skipped (retried each pass; the others go on): look at each row',
          ),
      });
    },
    async stop() {
      await booker?.stop();
    },
  };
}
