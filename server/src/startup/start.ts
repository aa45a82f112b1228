import type { Logger } from 'pino';
import { buildApp } from '../app.ts';
import { appOptions } from './app-options.ts';
import { startBackground } from './background.ts';
import { openDatabase, openReadPools } from './database.ts';
import { announceReady, listen } from './listeners.ts';
import { startMetricsAndBackups } from './metrics-and-backups.ts';
import { startLocalChains, startServices } from './services.ts';
import type { Settings } from './settings.ts';
import type { Closers } from './shutdown.ts';

/**
 * main.ts's start-up, step by step. Each step pushes what it starts onto `closers`, in this order, so
 * shutdown releases them last-in first-out (the HTTP server before the signer, the chains last).
 */
export async function startServer(settings: Settings, logger: Logger, closers: Closers): Promise<void> {
  const { config } = settings;
  const { chainOptions, preparedChains } = startLocalChains(settings, logger, closers);
  const { db, databaseUrl, redis, embeddedArchive } = await openDatabase(config, logger, closers);
  const services = await startServices(settings, { db, databaseUrl, chainOptions, preparedChains }, logger, closers);
  const metricsRegistry = await startMetricsAndBackups(settings, { db, embeddedArchive }, logger, closers);
  const reads = openReadPools(config, databaseUrl, metricsRegistry, logger, closers);
  const app = buildApp(appOptions(settings, { db, databaseUrl, redis, reads, metricsRegistry, services }, logger));
  const listeners = await listen(settings, { app, db, services }, logger, closers);
  startBackground(settings, { db, services }, logger, closers);
  announceReady(settings, listeners, logger);
}
