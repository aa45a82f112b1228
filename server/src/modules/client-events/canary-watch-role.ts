import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { fenceOf, instanceName, ROLE_LEASE_MS, runAsLeader } from '../leases/leader.ts';
import { startCanaryWatch } from './canary-watch.ts';
import { endCanaryInRegistry } from './registry-end-canary.ts';

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * The canary watch as a leased role (`canary-watch`): one instance judges canaries and rolls them
 * back, the others wait to take over. Without static files (an API-only instance) there is no
 * registry to watch and nothing starts.
 */
export function canaryWatchRole(options: { db: Kysely<Database>; staticDir: string | null; logger: Log }): {
  name: string;
  close: () => Promise<void>;
} {
  const { db, staticDir, logger } = options;
  if (staticDir === null) return { name: 'canary watch', close: async () => {} };
  const registryFile = path.join(staticDir, 'remotes.json');
  const leadership = runAsLeader({
    db,
    role: 'canary-watch',
    holder: instanceName(),
    ttlMs: ROLE_LEASE_MS,
    start: (token) =>
      startCanaryWatch({
        db,
        registryFile,
        fence: fenceOf('canary-watch', token),
        endCanary: async (remote, version) => {
          await endCanaryInRegistry(registryFile, remote, version);
          logger.warn({ remote, version }, 'canary rolled back: it failed more than its stable');
        },
        onError: (err) => logger.warn({ err }, 'canary watch pass failed'),
      }),
    onError: (err) => logger.warn({ err }, 'canary-watch lease: renewal failed'),
  });
  return { name: 'canary watch', close: () => leadership.close() };
}
