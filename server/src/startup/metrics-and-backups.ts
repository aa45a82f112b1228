import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { startEmbeddedBackups } from '../db/backup/embedded-backups.ts';
import type { Database } from '../db/schema.ts';
import { createMetricsRegistry, startMetricsServer } from '../http/metrics.ts';
import type { EmbeddedArchiveTarget } from './database.ts';
import type { Settings } from './settings.ts';
import type { Closers } from './shutdown.ts';

/**
 * The metrics registry, the embedded cluster's backup schedule (it reports there) and, when METRICS_PORT
 * is set, the metrics listener.
 */
export async function startMetricsAndBackups(
  settings: Settings,
  deps: { db: Kysely<Database>; embeddedArchive: EmbeddedArchiveTarget | undefined },
  logger: Logger,
  closers: Closers,
) {
  const { config, metricsConfig } = settings;
  const metricsRegistry = createMetricsRegistry();
  if (deps.embeddedArchive) {
    const backups = startEmbeddedBackups({
      ...deps.embeddedArchive,
      db: deps.db,
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
  return metricsRegistry;
}
