import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema.ts';
import { auditExportIntervalFromEnv, startAuditAnchorSchedule } from '../modules/audit/s3-anchor.ts';
import { canaryWatchRole } from '../modules/client-events/canary-watch-role.ts';
import { custodyCheck } from '../modules/custody/custody-check.ts';
import { moneyCheckIntervalFromEnv, startMoneyCheckSchedule } from '../modules/dashboard/money-check.ts';
import { startExchangeEngine } from '../modules/exchange/exchange-module.ts';
import { fenceOf, instanceName, ROLE_LEASE_MS, runAsLeader } from '../modules/leases/leader.ts';
import { porIntervalFromEnv, startPorSchedule } from '../modules/por/por-module.ts';
import { startRampSweep } from '../modules/ramp/ramp-module.ts';
import { startRetention } from '../modules/retention/retention.ts';
import { createS3Store } from '../modules/uploads/s3-store.ts';
import type { Services } from './services.ts';
import type { Settings } from './settings.ts';
import type { Closers } from './shutdown.ts';

/**
 * Roles that run on one instance at a time, on whichever holds the 'background' lease (taken over
 * within about 4 s when it dies): the deposit watchers (their cursor writes fenced by the lease's
 * token) and the proof-of-liabilities schedule (a Merkle-sum snapshot every POR_INTERVAL_MS).
 * Everything else here is safe on every instance (SKIP LOCKED queues, idempotency keys); the
 * signer child elects itself the same way (role 'signer').
 */
function startBackgroundRoles(settings: Settings, db: Kysely<Database>, services: Services, logger: Logger) {
  const { config } = settings;
  const { chain, now } = services;
  return runAsLeader({
    db,
    role: 'background',
    holder: instanceName(),
    ttlMs: ROLE_LEASE_MS,
    start: (token) => {
      logger.info({ token: token.toString() }, 'this instance runs the background roles');
      const stopWatchers = chain.watch(fenceOf('background', token));
      const por = startPorSchedule(db, now, porIntervalFromEnv(process.env), logger);
      // The money dashboard's reconcile and custody check (MONEY_CHECK_INTERVAL_MS, or when finance asks).
      const moneyCheck = startMoneyCheckSchedule(
        db,
        now,
        {
          intervalMs: moneyCheckIntervalFromEnv(process.env),
          custody: () => custodyCheck(db, config.dataDir, process.env),
        },
        logger,
      );
      return async () => {
        await Promise.all([stopWatchers(), por.close(), moneyCheck.close()]);
        logger.warn({}, 'background roles stopped here (lease lost or shutting down)');
      };
    },
    onError: (err) => logger.warn({ err }, 'background lease: renewal failed'),
  });
}

/**
 * The background step of main.ts, once the app listens: the exchange engine, the ramp sweep, the
 * leader-elected roles, the audit anchor, the canary watch and retention.
 */
export function startBackground(
  settings: Settings,
  deps: { db: Kysely<Database>; services: Services },
  logger: Logger,
  closers: Closers,
): void {
  const { config, rampConfig } = settings;
  const { db, services } = deps;
  const { now, chain, priceFeed, ramp } = services;
  // Exchange orders: deposits to order addresses, settlement, payouts through the signer.
  closers.push(
    startExchangeEngine({
      db,
      prices: priceFeed.prices,
      evmChains: chain.evmChains,
      lateDepositWatchMs: config.exchange.lateDepositWatchMs,
      intervalMs: config.exchange.engineIntervalMs,
      log: logger,
    }),
  );
  ramp.sandbox?.setWebhookUrl(`http://127.0.0.1:${config.port}/api/ramp/webhooks/moonpay`);
  closers.push({ name: 'ramp sweep', ...startRampSweep(db, now, logger, rampConfig.sweepIntervalMs) });
  const background = startBackgroundRoles(settings, db, services, logger);
  closers.push({ name: 'background roles', close: () => background.close() });
  // The audit log's head anchored outside the database (modules/audit/s3-anchor.ts), when S3 is set.
  const auditExportMs = auditExportIntervalFromEnv(process.env);
  if (config.uploads.s3 && auditExportMs !== null) {
    const store = createS3Store({ ...config.uploads.s3, prefix: '' });
    closers.push(startAuditAnchorSchedule({ db, store, now, intervalMs: auditExportMs, log: logger }));
  }
  // The canary watch (issue 35): ends a canary with --auto-rollback that fails more than its stable.
  closers.push(canaryWatchRole({ db, staticDir: config.staticDir, logger }));
  // Quotes, rate locks, codes, old sessions and idle throttle counters: deleted once past their use.
  closers.push(startRetention({ db, log: logger }));
}
