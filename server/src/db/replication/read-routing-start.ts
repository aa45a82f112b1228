import { Counter, type Registry } from 'prom-client';
import { createReadRouting, type ReadRouting } from './read-routing.ts';

/**
 * main.ts: DATABASE_READ_URL set gives the API a read routing (read-routing.ts) with its checkouts
 * counted in /metrics, so an operator sees how many reads the replica takes and why others did not
 * (`replica-behind`: writers' reads ahead of the replay; `replica-lagged`: the replica has not replayed
 * what the primary had written REPLICA_MAX_LAG_MS ago; `replica-unavailable`: the replica is down or backing off; `replica-failed`: a
 * replica query failed and ran again on the primary).
 */
export function startReadRouting(options: {
  readUrl: string | undefined;
  /** REPLICA_MAX_LAG_MS: a replica that has not replayed the primary's position of this long ago is not read. */
  maxLagMs: number;
  primaryUrl: string;
  max: number;
  registry: Registry;
  logger: { error(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };
}): ReadRouting | undefined {
  if (options.readUrl === undefined) return undefined;
  const routed = new Counter({
    name: 'db_read_checkouts_total',
    help: 'Connections taken for replica-eligible reads, by the side that served them and why',
    labelNames: ['side', 'reason'] as const,
    registers: [options.registry],
  });
  const reads = createReadRouting({
    primaryUrl: options.primaryUrl,
    readUrl: options.readUrl,
    max: options.max,
    maxLagMs: options.maxLagMs,
    logger: options.logger,
    onRouted: (side, reason) => routed.inc({ side, reason }),
  });
  options.logger.info({}, 'history, notices and proof-of-liabilities reads go to DATABASE_READ_URL');
  return reads;
}
