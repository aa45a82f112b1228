import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema.ts';
import { startDevClock } from '../dev/clock.ts';
import { localChainNetworks } from '../modules/chain/chain-config.ts';
import { type PreparedChains, prepareChains, startChainModule } from '../modules/chain/chain-module.ts';
import { seedLiquidity } from '../modules/convert/liquidity.ts';
import { startPrices } from '../modules/prices/start-prices.ts';
import { startRamp } from '../modules/ramp/ramp-module.ts';
import { createRewardsModule } from '../modules/rewards/rewards-module.ts';
import { startConfiguredSigner } from '../signer/spawn.ts';
import type { Settings } from './settings.ts';
import type { Closers } from './shutdown.ts';

type ChainOptions = Parameters<typeof prepareChains>[0];

/**
 * Keys (keygen child on first start) and local anvil chains need no database: main.ts starts them beside
 * PostgreSQL. Stopped last (pushed first), after the watchers and the database pool.
 */
export function startLocalChains(settings: Settings, logger: Logger, closers: Closers) {
  const { config } = settings;
  const chainOptions: ChainOptions = { dataDir: config.dataDir, env: process.env, chains: config.chains, log: logger };
  const preparedChains = prepareChains(chainOptions);
  preparedChains.catch(() => {}); // awaited (and reported) by startChainModule below
  closers.push({ name: 'local chains', close: async () => (await preparedChains.catch(() => undefined))?.stopLocal() });
  return { chainOptions, preparedChains };
}

/**
 * The services step of main.ts, on the open database: the clock, the chains' deposit watchers (not yet
 * watching), rewards, convert's liquidity and prices, the signer child and buy/sell.
 */
export async function startServices(
  settings: Settings,
  deps: {
    db: Kysely<Database>;
    databaseUrl: string;
    chainOptions: ChainOptions;
    preparedChains: Promise<PreparedChains>;
  },
  logger: Logger,
  closers: Closers,
) {
  const { config, rewardsConfig, rampConfig } = settings;
  const { db } = deps;
  // Deposit watchers on the chains prepared above. This process never loads a private key.
  // DEV_CLOCK (QA only): the server's time, moved forward by POST /dev/clock; else the system clock.
  const devClock = config.devClock ? await startDevClock(db) : null;
  if (devClock) closers.push({ name: 'dev clock', close: async () => devClock.stop() });
  const now = devClock ? devClock.now : () => new Date();
  const rewards = createRewardsModule({ config: rewardsConfig, log: logger });
  const chain = await startChainModule({
    ...deps.chainOptions,
    db,
    prepared: deps.preparedChains,
    observersFor: rewards.observersFor,
    now,
    // Started below on the instance that holds the background lease.
    watch: false,
  });
  closers.push({ name: 'deposit watchers', close: () => chain.stop() });
  // Rewards: the development pool and the booker (check-ins confirmed by the watchers above).
  await rewards.start(db, now);
  closers.push({ name: 'rewards booker', close: () => rewards.stop() });

  // Convert: dev liquidity (see modules/convert/liquidity.ts) and the price feed (sandbox unless PRICE_FEED_URL).
  if (config.convert.seedLiquidity) {
    const seeded = await seedLiquidity(db, new Date());
    if (seeded > 0) logger.warn({ coins: seeded }, 'development liquidity seeded from system_external');
  }
  const priceFeed = await startPrices(config.prices, logger);
  closers.push({ name: 'price feed', close: priceFeed.close });

  // The signer child holds the hot wallet key; it stops after the HTTP server, before the chains and the database.
  const signer = startConfiguredSigner(config, deps.databaseUrl, logger);
  if (signer) closers.push(signer);

  const localNetworks = new Set(localChainNetworks(process.env));
  // Buy/sell: MoonPay when configured, else the sandbox provider on loopback (local chains only).
  const ramp = await startRamp({
    config: rampConfig,
    chains: chain.evmChains,
    localChains: localNetworks.size > 0,
    production: config.nodeEnv === 'production',
    log: logger,
  });
  const rampSandbox = ramp.sandbox;
  if (rampSandbox) closers.push({ name: 'sandbox payment provider', close: () => rampSandbox.close() });
  return { devClock, now, chain, priceFeed, signer, ramp, localNetworks };
}

export type Services = Awaited<ReturnType<typeof startServices>>;
