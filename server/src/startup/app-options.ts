import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { buildApp } from '../app.ts';
import type { createRedis } from '../db/redis.ts';
import type { startReadRouting } from '../db/replication/read-routing-start.ts';
import type { Database } from '../db/schema.ts';
import type { createMetricsRegistry } from '../http/metrics.ts';
import { exchangeAvailability } from '../modules/exchange/exchange-module.ts';
import { loadPayoutKey } from '../modules/payment-methods/sealing.ts';
import { porIntervalFromEnv } from '../modules/por/por-module.ts';
import { createS3Store } from '../modules/uploads/s3-store.ts';
import { createLocalStore } from '../modules/uploads/storage.ts';
import { walletOptionsFromConfig } from '../modules/wallet/wallet-module.ts';
import type { Services } from './services.ts';
import type { Settings } from './settings.ts';

/** The app's dependencies, assembled from the settings and the services main.ts started. */
export function appOptions(
  settings: Settings,
  deps: {
    db: Kysely<Database>;
    databaseUrl: string;
    redis: ReturnType<typeof createRedis> | undefined;
    reads: ReturnType<typeof startReadRouting>;
    metricsRegistry: ReturnType<typeof createMetricsRegistry>;
    services: Services;
  },
  logger: Logger,
): Parameters<typeof buildApp>[0] {
  const { config, rewardsConfig, rampConfig, metricsConfig, consoleConfig } = settings;
  const { db, databaseUrl, redis, reads } = deps;
  const { now, chain, priceFeed, signer, ramp } = deps.services;
  return {
    db,
    ...(reads ? { reads } : {}),
    now,
    logger,
    metrics: deps.metricsRegistry,
    metricsToken: metricsConfig.token,
    staticDir: config.staticDir,
    console: { origin: consoleConfig.origin },
    prices: priceFeed.prices,
    convertQuoteTtlMs: config.convert.quoteTtlMs,
    apiInstances: config.convert.instances,
    bodyLimit: config.bodyLimit,
    rateLimit: config.rateLimit,
    rateLimitStore: 'database',
    ...(redis ? { redis } : {}),
    trustProxy: config.trustProxy,
    wallet: walletOptionsFromConfig(config, signer !== undefined),
    deposits: { xpubs: chain.keys.xpubs },
    hotWallets: chain.keys.hotWallets,
    exchange: {
      xpubs: chain.keys.xpubs,
      fixedWindowMs: config.exchange.fixedWindowMs,
      floatWindowMs: config.exchange.floatWindowMs,
      maxUnpaidOrders: config.exchange.maxUnpaidOrders,
      availability: exchangeAvailability(chain.evmChains, () => signer !== undefined),
    },
    auth: {
      session: config.session,
      codeLimits: { perIpPerHour: config.codeIpHourlyLimit },
      webauthn: config.webauthn,
      publicOrigin: config.security.publicOrigin,
      unfreezeHoldMs: config.security.unfreezeHoldHours * 3_600_000,
    },
    mail: { smtpUrl: config.smtpUrl ?? null, from: config.mailFrom, devMailbox: config.devMailbox },
    mailDailyLimit: config.mailDailyLimit,
    supportEmail: config.supportEmail,
    rewards: { config: rewardsConfig, chains: chain.evmChains },
    por: { intervalMs: porIntervalFromEnv(process.env) },
    payouts: { key: loadPayoutKey(config.dataDir, process.env) },
    ramp: {
      config: rampConfig,
      provider: ramp.provider,
      networks: () => new Set(Object.values(chain.evmChains()).flatMap((c) => (c ? [c.network] : []))),
    },
    notifications: { databaseUrl },
    uploads: {
      store: config.uploads.s3
        ? createS3Store(config.uploads.s3)
        : createLocalStore(path.join(config.dataDir, 'uploads')),
      tmpDir: path.join(config.dataDir, 'uploads', 'tmp'),
      quotaBytes: config.uploads.quotaBytes,
    },
  };
}
