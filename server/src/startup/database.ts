import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { databaseRoles, migrateAsOwner } from '../db/app-role.ts';
import { type EmbeddedArchive, prepareEmbeddedArchive } from '../db/backup/embedded-backups.ts';
import { createDb } from '../db/create-db.ts';
import { startEmbeddedPostgres } from '../db/embedded-postgres.ts';
import { createRedis } from '../db/redis.ts';
import { embeddedReplication } from '../db/replication/embedded-standby.ts';
import { startReadRouting } from '../db/replication/read-routing-start.ts';
import type { createMetricsRegistry } from '../http/metrics.ts';
import type { Closers } from './shutdown.ts';

const EMBEDDED_DATABASE = 'wallet';

/** What the backup schedule needs of the embedded cluster (db/backup/embedded-backups.ts). */
export type EmbeddedArchiveTarget = { archive: EmbeddedArchive; adminUrl: string; clusterDir: string };

/** The embedded cluster (and its standby), when DATABASE_URL is unset. */
async function startEmbedded(
  config: Config,
  logger: Logger,
  closers: Closers,
): Promise<{ superuserUrl: string; archive: EmbeddedArchiveTarget | undefined }> {
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
  // `npm start -- --standby`: a synchronous streaming replica beside it (db/replication/embedded-standby.ts).
  const replication = await embeddedReplication({
    wanted: process.argv.includes('--standby') || process.env.EMBEDDED_STANDBY === 'true',
    primary: pg,
    dataDir: dir,
    layout: archive?.layout,
    log: (msg) => logger.info({ standby: true }, msg),
  });
  if (replication) closers.push({ name: 'embedded standby', close: () => replication.standby.stop() });
  return {
    superuserUrl: pg.url(EMBEDDED_DATABASE),
    archive: archive ? { archive, adminUrl: pg.url(), clusterDir: pg.dataDir } : undefined,
  };
}

/**
 * The database step of main.ts: embedded PostgreSQL unless DATABASE_URL, migrations, the app's pool, redis.
 */
export async function openDatabase(config: Config, logger: Logger, closers: Closers) {
  let embeddedSuperuserUrl: string | undefined;
  // Continuous WAL archiving + daily base backups of the embedded cluster (db/backup/, issue 34).
  let embeddedArchive: EmbeddedArchiveTarget | undefined;
  if (config.databaseUrl === undefined) {
    const embedded = await startEmbedded(config, logger, closers);
    embeddedSuperuserUrl = embedded.superuserUrl;
    embeddedArchive = embedded.archive;
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
  return { db, databaseUrl, redis, embeddedArchive };
}

/** DATABASE_READ_URL: lag-tolerant reads on the replica, read-your-writes kept (db/replication/read-routing.ts). */
export function openReadPools(
  config: Config,
  databaseUrl: string,
  registry: ReturnType<typeof createMetricsRegistry>,
  logger: Logger,
  closers: Closers,
) {
  const reads = startReadRouting({
    readUrl: config.databaseReadUrl,
    maxLagMs: config.replicaMaxLagMs,
    primaryUrl: databaseUrl,
    max: config.databasePoolMax,
    registry,
    logger,
  });
  if (reads) closers.push({ name: 'read pools', close: () => reads.destroy() });
  return reads;
}
