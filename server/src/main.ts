/**
 * Entry point: config -> database (embedded PostgreSQL unless DATABASE_URL) -> migrations -> app -> listen.
 * Shutdown (SIGINT/SIGTERM): stop accepting, finish in-flight requests, close the pool, stop embedded PostgreSQL.
 * The steps live in startup/: settings.ts, shutdown.ts, then start.ts and the steps it runs in order.
 */
// First: a bad configuration exits before the rest of the graph is evaluated (main-config-check.ts).
import './main-config-check.ts';
import { createLogger } from './logger.ts';
import { loadSettings } from './startup/settings.ts';
import { closeOnSignals, createClosers } from './startup/shutdown.ts';
import { startServer } from './startup/start.ts';

const settings = loadSettings();
const logger = createLogger(settings.config);
const closers = createClosers(logger);
closeOnSignals(settings.config, logger, closers);

try {
  await startServer(settings, logger, closers);
} catch (err) {
  logger.fatal({ err }, 'start-up failed');
  await closers.closeAll();
  process.exit(1);
}
