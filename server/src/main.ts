/**
 * Entry point: config -> database (embedded PostgreSQL unless DATABASE_URL) -> migrations -> app -> listen.
 * Shutdown (SIGINT/SIGTERM): stop accepting, finish in-flight requests, close the pool, stop embedded PostgreSQL.
 */
// First: a bad configuration exits before the rest of the graph is evaluated (main-config-check.ts).
import './main-config-check.ts';
import path from 'node:path';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { databaseRoles, migrateAsOwner } from './db/app-role.ts';
import { type EmbeddedArchive, prepareEmbeddedArchive, startEmbeddedBackups } from './db/backup/embedded-backups.ts';
import { createDb } from './db/create-db.ts';
import { startEmbeddedPostgres } from './db/embedded-postgres.ts';
import { createRedis } from './db/redis.ts';
import { embeddedReplication } from './db/replication/embedded-standby.ts';
import { startReadRouting } from './db/replication/read-routing-start.ts';
import { advanceAnvil, startDevClock } from './dev/clock.ts';
import { devPortFromEnv, startDevServer } from './dev/dev-server.ts';
import { consoleConfigFromEnv, startConsoleListener } from './http/console-listener.ts';
import { createMetricsRegistry, startMetricsServer } from './http/metrics.ts';
import { type MetricsConfig, metricsConfigFromEnv } from './http/metrics-config.ts';
import { serializerModeFromEnv, setDefaultSerializerMode } from './http/serializers.ts';
import { createLogger } from './logger.ts';
import { auditExportIntervalFromEnv, startAuditAnchorSchedule } from './modules/audit/s3-anchor.ts';
import { localChainNetworks } from './modules/chain/chain-config.ts';
import { prepareChains, startChainModule } from './modules/chain/chain-module.ts';
import { canaryWatchRole } from './modules/client-events/canary-watch-role.ts';
import { seedLiquidity } from './modules/convert/liquidity.ts';
import { custodyCheck } from './modules/custody/custody-check.ts';
import { moneyCheckIntervalFromEnv, startMoneyCheckSchedule } from './modules/dashboard/money-check.ts';
import { exchangeAvailability, startExchangeEngine } from './modules/exchange/exchange-module.ts';
import { fenceOf, instanceName, ROLE_LEASE_MS, runAsLeader } from './modules/leases/leader.ts';
import { loadPayoutKey } from './modules/payment-methods/sealing.ts';
import { porIntervalFromEnv, startPorSchedule } from './modules/por/por-module.ts';
import { startPrices } from './modules/prices/start-prices.ts';
import { type RampConfig, rampConfigFromEnv } from './modules/ramp/ramp-config.ts';
import { startRamp, startRampSweep } from './modules/ramp/ramp-module.ts';
import { startRetention } from './modules/retention/retention.ts';
import { rewardsConfigFromEnv } from './modules/rewards/rewards-config.ts';
import { createRewardsModule } from './modules/rewards/rewards-module.ts';
import { createS3Store } from './modules/uploads/s3-store.ts';
import { createLocalStore } from './modules/uploads/storage.ts';
import { walletOptionsFromConfig } from './modules/wallet/wallet-module.ts';
import { startConfiguredSigner } from './signer/spawn.ts';

const EMBEDDED_DATABASE = 'wallet';

let config: Config;
let rewardsConfig: ReturnType<typeof rewardsConfigFromEnv>;
let rampConfig: RampConfig;
let metricsConfig: MetricsConfig;
let consoleConfig: ReturnType<typeof consoleConfigFromEnv>;
try {
  config = loadConfig();
  rewardsConfig = rewardsConfigFromEnv(process.env);
  rampConfig = rampConfigFromEnv(process.env);
  metricsConfig = metricsConfigFromEnv(process.env);
  consoleConfig = consoleConfigFromEnv(process.env, {
    nodeEnv: config.nodeEnv,
    publicOrigin: config.security.publicOrigin,
  });
  setDefaultSerializerMode(serializerModeFromEnv(process.env));
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}

const logger = createLogger(config);

/** Resources to release on shutdown, released last-in first-out. */
const closers: { name: string; close: () => Promise<unknown> }[] = [];

async function closeAll(): Promise<void> {
  for (const { name, close } of closers.splice(0).reverse()) {
    try {
      await close();
    } catch (err) {
      logger.error({ err }, `error while closing ${name}`);
    }
  }
}

closeWithGrace({ delay: config.shutdownTimeoutMs, logger }, async ({ signal, err }) => {
  // scripts/start.ts (our parent under `npm start`) then knows not to forward the same signal again.
  process.send?.({ type: 'shutting-down' });
  if (err) logger.error({ err }, 'shutting down after an unhandled error');
  else logger.info({ signal }, 'shutting down');
  await closeAll();
});

try {
  // Keys (keygen child on first start) and local anvil chains need no database: start them beside
  // PostgreSQL. Stopped last (pushed first), after the watchers and the database pool.
  const chainOptions = { dataDir: config.dataDir, env: process.env, chains: config.chains, log: logger };
  const preparedChains = prepareChains(chainOptions);
  preparedChains.catch(() => {}); // awaited (and reported) by startChainModule below
  closers.push({ name: 'local chains', close: async () => (await preparedChains.catch(() => undefined))?.stopLocal() });

  let embeddedSuperuserUrl: string | undefined;
  // Continuous WAL archiving + daily base backups of the embedded cluster (db/backup/, issue 34).
  let embeddedArchive: { archive: EmbeddedArchive; adminUrl: string; clusterDir: string } | undefined;
  if (config.databaseUrl === undefined) {
    const dir = config.dataDir;
    // A folder the archive cannot use must not stop the wallet: logged loudly, /metrics shows no archive.
    const archive = await prepareEmbeddedArchive(dir, process.env).catch((err: unknown) => {
      logger.error({ err }, 'WAL archiving is OFF: the backup folder cannot be prepared');
      return undefined;
    });
    const pg = await startEmbeddedPostgres({
      dir,
      ...(archive ? { settings: archive.settings } : {}),
      ...(config.pgPort === undefined ? {} : { port: config.pgPort }),
      log: (msg) => logger.info({ dataDir: path.join(dir, 'pg') }, msg),
    });
    closers.push({ name: 'embedded PostgreSQL', close: () => pg.stop() });
    await pg.ensureDatabase(EMBEDDED_DATABASE);
    embeddedSuperuserUrl = pg.url(EMBEDDED_DATABASE);
    if (archive) embeddedArchive = { archive, adminUrl: pg.url(), clusterDir: pg.dataDir };
    // `npm start -- --standby`: a synchronous streaming replica beside it (db/replication/embedded-standby.ts).
    const replication = await embeddedReplication({
      wanted: process.argv.includes('--standby') || process.env.EMBEDDED_STANDBY === 'true',
      primary: pg,
      dataDir: dir,
      layout: archive?.layout,
      log: (msg) => logger.info({ standby: true }, msg),
    });
    if (replication) closers.push({ name: 'embedded standby', close: () => replication.standby.stop() });
  }
  // Migrations as the owner, everything else as the app's role (db/app-role.ts, review 32a finding 1).
  const roles = await databaseRoles(
    { dataDir: config.dataDir, embeddedSuperuserUrl, databaseUrl: config.databaseUrl },
    process.env,
  );
  if (!roles.split && config.nodeEnv === 'production')
    logger.warn({}, 'MIGRATION_DATABASE_URL is not set: the API owns the tables, so it could rewrite the audit log');
  await migrateAsOwner(roles.ownerUrl, logger);
  const databaseUrl = roles.appUrl;

  const db = createDb(databaseUrl, { logger, max: config.databasePoolMax });
  closers.push({ name: 'database pool', close: () => db.destroy() });
  const redis = config.redisUrl === undefined ? undefined : createRedis(config.redisUrl, logger);
  if (redis) closers.push({ name: 'redis', close: async () => void (await redis.quit()) });

  // Deposit watchers on the chains prepared above. This process never loads a private key.
  // DEV_CLOCK (QA only): the server's time, moved forward by POST /dev/clock; else the system clock.
  const devClock = config.devClock ? await startDevClock(db) : null;
  if (devClock) closers.push({ name: 'dev clock', close: async () => devClock.stop() });
  const now = devClock ? devClock.now : () => new Date();
  const rewards = createRewardsModule({ config: rewardsConfig, log: logger });
  const chain = await startChainModule({
    ...chainOptions,
    db,
    prepared: preparedChains,
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
  const signer = startConfiguredSigner(config, databaseUrl, logger);
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
  const metricsRegistry = createMetricsRegistry();
  if (embeddedArchive) {
    const backups = startEmbeddedBackups({
      ...embeddedArchive,
      db,
      registry: metricsRegistry,
      env: process.env,
      s3: config.uploads.s3,
      log: (level, msg) => logger[level](msg),
    });
    closers.push({ name: 'backup schedule', close: async () => backups.stop() });
  }
  if (metricsConfig.listener) {
    const metricsServer = await startMetricsServer(metricsRegistry, metricsConfig.listener);
    closers.push({ name: 'metrics listener', close: () => metricsServer.close() });
    logger.info({ url: metricsServer.url }, 'metrics listening');
  }
  // DATABASE_READ_URL: lag-tolerant reads on the replica, read-your-writes kept (db/replication/read-routing.ts).
  const reads = startReadRouting({
    readUrl: config.databaseReadUrl,
    maxLagMs: config.replicaMaxLagMs,
    primaryUrl: databaseUrl,
    max: config.databasePoolMax,
    registry: metricsRegistry,
    logger,
  });
  if (reads) closers.push({ name: 'read pools', close: () => reads.destroy() });
  const app = buildApp({
    db,
    ...(reads ? { reads } : {}),
    now,
    logger,
    metrics: metricsRegistry,
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
  });
  // app.close() stops accepting connections and waits for in-flight requests.
  closers.push({ name: 'HTTP server', close: () => app.close() });
  await app.listen({ host: config.host, port: config.port });
  // The operator console and /api/ops: on their own listener and origin only (http/console-surface.ts).
  const consoleListener = consoleConfig.listener ? await startConsoleListener(app, consoleConfig.listener) : null;
  if (consoleListener) {
    closers.push({ name: 'operator console listener', close: () => consoleListener.close() });
    logger.info({ url: consoleListener.url, origin: consoleConfig.origin }, 'operator console listening');
  }
  // The dev mailbox and clock: on their own listener bound to 127.0.0.1, never on the app port.
  const devPort = devPortFromEnv(process.env);
  const devServer =
    (config.devMailbox || devClock) && devPort !== null
      ? await startDevServer({
          db,
          devMailbox: config.devMailbox,
          clock: devClock,
          advanceChains: async (seconds: number) => {
            const chains = Object.values(chain.evmChains()).filter((c) => c && localNetworks.has(c.network));
            await Promise.all(chains.map((c) => c && advanceAnvil(c.rpcUrl, seconds)));
          },
          port: devPort,
        })
      : null;
  if (devServer) {
    closers.push({ name: 'dev listener', close: () => devServer.close() });
    logger.info({ url: devServer.url }, 'development routes (mailbox, clock) listening on loopback');
  }
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
  rampSandbox?.setWebhookUrl(`http://127.0.0.1:${config.port}/api/ramp/webhooks/moonpay`);
  closers.push({ name: 'ramp sweep', ...startRampSweep(db, now, logger, rampConfig.sweepIntervalMs) });
  // Roles that run on one instance at a time, on whichever holds the 'background' lease (taken over
  // within about 4 s when it dies): the deposit watchers (their cursor writes fenced by the lease's
  // token) and the proof-of-liabilities schedule (a Merkle-sum snapshot every POR_INTERVAL_MS).
  // Everything else here is safe on every instance (SKIP LOCKED queues, idempotency keys); the
  // signer child elects itself the same way (role 'signer').
  const background = runAsLeader({
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

  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  logger.info({ url, startupMs: Math.round(performance.now()) }, `Server ready at ${url}`);
  // One plain line for the person who typed `npm start`, whatever the log level and format.
  const mailbox =
    config.devMailbox && !config.smtpUrl && devServer ? ` (dev mailbox: ${devServer.url}/dev/mailbox)` : '';
  process.stdout.write(`CW Wallet is running at ${url}${mailbox}\n`);
  if (consoleListener) process.stdout.write(`Operator console: ${consoleConfig.origin}/ops/\n`);
} catch (err) {
  logger.fatal({ err }, 'start-up failed');
  await closeAll();
  process.exit(1);
}
