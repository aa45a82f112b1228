import { ConfigError, loadConfig } from './config.ts';
import { tsChildLoader } from './lib/ts-child.ts';

/**
 * main.ts imports this first: a bad base configuration exits here, naming the variable, before the
 * server's module graph (viem, fastify, every module) is evaluated. ESM evaluates imports in order, so
 * this saves that evaluation (about a third of a bad start's CPU; loading the graph is still paid).
 * main.ts reads the configuration again, with the module-specific settings, and reports those itself.
 * loadConfig has no side effects, so a good configuration is read twice and nothing else changes.
 */
const issues: string[] = [];
// The signer's and keygen's loader too: a bad value is refused here, not when the first child is spawned.
for (const check of [loadConfig, tsChildLoader]) {
  try {
    check();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    issues.push(...err.issues);
  }
}
if (issues.length > 0) {
  console.error(new ConfigError(issues).message);
  process.exit(1);
}
