import { ConfigError, loadConfig } from './config.ts';

/**
 * main.ts imports this first: a bad base configuration exits here, naming the variable, before the
 * server's module graph (viem, fastify, every module) is evaluated. ESM evaluates imports in order, so
 * this saves that evaluation (about a third of a bad start's CPU; loading the graph is still paid).
 * main.ts reads the configuration again, with the module-specific settings, and reports those itself.
 * loadConfig has no side effects, so a good configuration is read twice and nothing else changes.
 */
try {
  loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
