import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import { assert } from '../ledger/model.ts';
import { type EvmChainRuntime, loadChainConfig, localChainNetworks } from './chain-config.ts';
import { createEsploraWatcher } from './esplora-watcher.ts';
import { createEvmWatcher } from './evm-watcher.ts';
import { wsHeads } from './head-subscriber.ts';
import { loadPublicKeys, type PublicKeys } from './keys.ts';
import { type LocalChains, startLocalChains } from './local-chains.ts';
import { startWatchers, type WatcherRunner } from './runner.ts';
import { createTronWatcher } from './tron-watcher.ts';
import type { ChainWatcher, EvmLogObserver, WatcherFence } from './watcher.ts';

/**
 * Server start-up of the chain side: public keys (keygen child on first start), local anvil chains
 * for unconfigured EVM networks, and the deposit watchers as loops in this process. No private key
 * is ever loaded here.
 */
export interface ChainModuleOptions {
  db: Kysely<Database>;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  chains: {
    trongridUrl: string | undefined;
    esploraBitcoinUrl: string | undefined;
    esploraDogecoinUrl: string | undefined;
    localChains: boolean;
    anvilBlockTimeS: number;
    watcherPollMs: number;
  };
  /** The clock deposits and check-ins are stamped with (DEV_CLOCK moves it); default the system clock. */
  now?: () => Date;
  /** Contract-event readers for an EVM chain's watcher (the rewards check-ins). */
  observersFor?: (runtime: EvmChainRuntime) => EvmLogObserver[];
  /** Start the watchers at once (default) or leave it to `watch()`. */
  watch?: boolean;
  log: {
    info(details: Record<string, unknown>, msg: string): void;
    warn(details: Record<string, unknown>, msg: string): void;
    error(details: Record<string, unknown>, msg: string): void;
  };
}

export interface ChainModule {
  keys: PublicKeys;
  /** The EVM chains in use (re-read from chains.json/env). */
  evmChains(): Record<EvmNetwork, EvmChainRuntime | undefined>;
  /**
   * Starts the deposit watchers (at start-up unless `watch: false`; main.ts starts them on the elected
   * instance, fenced by its lease); returns their stop.
   */
  watch(fence?: WatcherFence): () => Promise<void>;
  /** Stops the watchers, then (unless prepared by the caller) the local chains; anvil dumps its state on SIGTERM. */
  stop(): Promise<void>;
}

/** Keys and local chains: everything that needs no database, so it can start beside PostgreSQL. */
export interface PreparedChains {
  keys: PublicKeys;
  localNetworks: EvmNetwork[];
  /** Stops the local anvil chains (they dump their state). */
  stopLocal(): Promise<void>;
  startMs: number;
}

export async function prepareChains(options: Omit<ChainModuleOptions, 'db'>): Promise<PreparedChains> {
  const { dataDir, env, log } = options;
  const started = performance.now();
  const keys = await loadPublicKeys(dataDir, env, (msg) => log.warn({}, msg));
  let local: LocalChains | undefined;
  const localNetworks = options.chains.localChains ? localChainNetworks(env) : [];
  if (localNetworks.length > 0) {
    local = await startLocalChains({
      dataDir,
      networks: localNetworks,
      hotWallets: keys.hotWallets,
      ...(options.chains.anvilBlockTimeS > 0 ? { blockTimeS: options.chains.anvilBlockTimeS } : {}),
      log: (msg, details) => log.info(details ?? {}, msg),
    });
  }
  return {
    keys,
    localNetworks,
    stopLocal: async () => local?.stop(),
    startMs: Math.round(performance.now() - started),
  };
}

/**
 * Starts the deposit watchers on prepared chains. Without `prepared` it prepares them itself and
 * its stop() also stops the local chains; with `prepared` (main.ts starts them beside PostgreSQL)
 * the caller stops them with `stopLocal()`.
 */
export async function startChainModule(
  options: ChainModuleOptions & { prepared?: Promise<PreparedChains> },
): Promise<ChainModule> {
  const { dataDir, env } = options;
  const ownsLocal = options.prepared === undefined;
  const prepared = await (options.prepared ?? prepareChains(options));
  const { keys, stopLocal } = prepared;
  let running: WatcherRunner | null = null;
  const module: ChainModule = {
    keys,
    evmChains: () => loadChainConfig(dataDir, env),
    watch(fence) {
      assert(running === null, 'one set of deposit watchers at a time');
      const runner = startDepositWatchers(options, prepared, fence);
      running = runner;
      return async () => {
        await runner.stop();
        if (running === runner) running = null;
      };
    },
    async stop() {
      await running?.stop();
      running = null;
      if (ownsLocal) await stopLocal();
    },
  };
  if (options.watch !== false) module.watch();
  return module;
}

/** The deposit watchers of every configured chain, as loops in this process. */
function startDepositWatchers(options: ChainModuleOptions, prepared: PreparedChains, fence?: WatcherFence) {
  const { db, dataDir, env, log } = options;
  const { localNetworks, startMs } = prepared;
  const evm = loadChainConfig(dataDir, env);
  const watchers: ChainWatcher[] = [];
  const fenced = fence ? { fence } : {};
  for (const runtime of Object.values(evm)) {
    if (!runtime) continue;
    const isLocal = localNetworks.includes(runtime.network);
    watchers.push(
      createEvmWatcher({
        db,
        runtime,
        // A local chain is scanned from genesis; a real one from the tip at first start.
        startBlock: isLocal ? 0n : 'tip',
        observers: options.observersFor?.(runtime) ?? [],
        ...(options.now ? { now: options.now } : {}),
        log: (msg, details) => log.warn(details ?? {}, msg),
        ...fenced,
      }),
    );
  }
  if (options.chains.trongridUrl)
    watchers.push(createTronWatcher({ db, baseUrl: options.chains.trongridUrl, ...fenced }));
  if (options.chains.esploraBitcoinUrl) {
    watchers.push(
      createEsploraWatcher({ db, network: 'bitcoin', baseUrl: options.chains.esploraBitcoinUrl, ...fenced }),
    );
  }
  if (options.chains.esploraDogecoinUrl) {
    watchers.push(
      createEsploraWatcher({ db, network: 'dogecoin', baseUrl: options.chains.esploraDogecoinUrl, ...fenced }),
    );
  }
  // Deposits on push: each EVM watcher also wakes on its node's new heads (WebSocket), polling stays the fallback.
  const wsUrls = new Map(
    Object.values(evm).flatMap((c) => (c?.wsUrl ? [[c.network as string, c.wsUrl] as const] : [])),
  );
  const runner: WatcherRunner = startWatchers(watchers, {
    pollMs: options.chains.watcherPollMs,
    heads: (network) => {
      const url = wsUrls.get(network);
      return url ? wsHeads({ url, log: (msg, err) => log.warn({ network, err }, msg) }) : undefined;
    },
    onError: (network, err) => log.warn({ network, err }, 'deposit watcher tick failed; retrying'),
    onTick: (r) => {
      if (r.credited > 0 || r.observed > 0) {
        log.info({ network: r.network, observed: r.observed, credited: r.credited }, 'deposits updated');
      }
    },
  });
  log.info({ networks: watchers.map((w) => w.network), chainStartMs: startMs }, 'deposit watchers running');
  return runner;
}
