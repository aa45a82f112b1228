import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { addressBookRoutes } from '../address-book/routes.ts';
import { createAddressBookService } from '../address-book/service.ts';
import { allowlistRoutes } from '../allowlist/routes.ts';
import { allowlistHoldMsOf, createAllowlistService } from '../allowlist/service.ts';
import type { AuthModule } from '../auth/auth-module.ts';
import type { NetworkCode } from '../catalogue/catalogue.ts';
import type { ChainsProvider } from '../catalogue/chains-file.ts';
import type { PlatformAddresses } from '../catalogue/platform-addresses.ts';
import { catalogueRoutes } from '../catalogue/routes.ts';
import { evmWatched, type WatchedNetworks } from '../catalogue/runtime.ts';
import { loadChainConfig } from '../chain/chain-config.ts';
import { historyRoutes } from '../history/routes.ts';
import { createHistoryService } from '../history/service.ts';
import { sendRoutes } from '../sends/routes.ts';
import { createSendsService } from '../sends/service.ts';
import { createOutflowBudget, type OutflowBudget, type OutflowPrices } from '../withdrawals/outflow-budget.ts';
import { type AutoReviewLimits, autoReviewLimits, parseAutoReviewLimits } from '../withdrawals/review-policy.ts';
import { withdrawalRoutes } from '../withdrawals/routes.ts';
import { createWithdrawalsService } from '../withdrawals/service.ts';

export interface WalletOptions {
  /** The running EVM chains (DATA_DIR/chains.json); default none, so no withdrawal is enabled. */
  chains?: ChainsProvider;
  /** Per-coin 24-hour auto-review limits; default review-policy.ts's. */
  autoReviewLimits?: AutoReviewLimits;
  /** Whether the signer process runs (server main); default true. False disables every withdrawal. */
  signerRunning?: boolean;
  /** Networks whose deposits are watched; default the running EVM chains. */
  watchedNetworks?: WatchedNetworks;
  /** The platform's own addresses, refused as withdrawal targets (app.ts builds it). */
  platform?: PlatformAddresses;
  /** USD prices valuing outflows in their shared review budget (outflow-budget.ts); default the app's. */
  prices?: OutflowPrices | null;
  /** The 24-hour USD review budget of withdrawals, sends and sells together, in cents; default $10,000. */
  outflowBudgetUsdCents?: bigint;
  /** Hold of a newly trusted allowlist entry and of turning the allowlist off, in hours; default 24. */
  allowlistHoldHours?: number;
}

/** The one outflow budget of the app (withdrawals, sends, and the ramp's sells share it). */
export function outflowBudgetOf(options: WalletOptions, prices: OutflowPrices | null): OutflowBudget {
  return createOutflowBudget({
    prices: options.prices ?? prices,
    ...(options.outflowBudgetUsdCents === undefined ? {} : { budgetUsdCents: options.outflowBudgetUsdCents }),
  });
}

/**
 * The wallet's API, composed: GET /api/catalogue and /api/wallet/* (withdrawals, sends, address book,
 * history). Each part lives in its own module; this file only wires their services together.
 */
export const walletRoutes: FastifyPluginAsyncTypebox<
  WalletOptions & {
    db: Kysely<Database>;
    /** Lag-tolerant reads (the history page): the replica in a replica-read route; default `db`. */
    readDb?: Kysely<Database>;
    now: () => Date;
    auth: AuthModule;
    outflowBudget?: OutflowBudget;
  }
> = async (app, options) => {
  const { db, now, auth } = options;
  const chains = options.chains ?? (() => ({}));
  const signerRunning = options.signerRunning ?? true;
  const deps = { db, now, codes: auth.codes, fundPassword: auth.fundPassword, factors: auth.factors };
  const limits = options.autoReviewLimits ?? autoReviewLimits();
  const outflowBudget = options.outflowBudget ?? outflowBudgetOf(options, null);
  await app.register(catalogueRoutes, {
    chains,
    signerRunning,
    ...(options.watchedNetworks ? { watchedNetworks: options.watchedNetworks } : {}),
  });
  await app.register(withdrawalRoutes, {
    service: createWithdrawalsService({
      ...deps,
      signerRunning,
      chains,
      autoReviewLimits: limits,
      outflowBudget,
      ...(options.platform ? { platform: options.platform } : {}),
    }),
    accounts: auth.accounts,
  });
  await app.register(sendRoutes, {
    service: createSendsService({ ...deps, budget: outflowBudget }),
    accounts: auth.accounts,
  });
  await app.register(addressBookRoutes, { service: createAddressBookService({ db, now }) });
  const allowlistHoldMs = allowlistHoldMsOf(options.allowlistHoldHours);
  await app.register(allowlistRoutes, {
    service: createAllowlistService({ db, now, holdMs: allowlistHoldMs, publicOrigin: auth.publicOrigin }),
  });
  await app.register(historyRoutes, { service: createHistoryService({ db: options.readDb ?? db }) });
};

/** The server's wallet options: chains from the chain module's loader, auto-review limits from config. */
export function walletOptionsFromConfig(
  config: {
    dataDir: string;
    wallet: { autoReviewLimits: string; outflowBudgetUsd: string; allowlistHoldHours?: number };
    chains: {
      trongridUrl?: string | undefined;
      esploraBitcoinUrl?: string | undefined;
      esploraDogecoinUrl?: string | undefined;
    };
  },
  signerRunning: boolean,
): WalletOptions {
  // The same rule the chain module starts its watchers by (chain-module.ts): every instance agrees.
  const apiWatched: NetworkCode[] = [
    ...(config.chains.trongridUrl ? (['tron'] as const) : []),
    ...(config.chains.esploraBitcoinUrl ? (['bitcoin'] as const) : []),
    ...(config.chains.esploraDogecoinUrl ? (['dogecoin'] as const) : []),
  ];
  return {
    signerRunning,
    watchedNetworks: (chains) => new Set([...evmWatched(chains), ...apiWatched]),
    chains: () => loadChainConfig(config.dataDir),
    autoReviewLimits: autoReviewLimits(parseAutoReviewLimits(config.wallet.autoReviewLimits)),
    outflowBudgetUsdCents: BigInt(config.wallet.outflowBudgetUsd) * 100n,
    ...(config.wallet.allowlistHoldHours === undefined ? {} : { allowlistHoldHours: config.wallet.allowlistHoldHours }),
  };
}
