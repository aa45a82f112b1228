import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { listSnapshots, publishSnapshot } from './snapshot.ts';

interface Log {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

const DEFAULT_INTERVAL_MS = 6 * 3_600_000;

/** POR_INTERVAL_MS: time between proof-of-liabilities snapshots; at least a minute, default 6 hours. */
export function porIntervalFromEnv(env: NodeJS.ProcessEnv): number {
  const n = Number(env.POR_INTERVAL_MS ?? DEFAULT_INTERVAL_MS);
  return Number.isInteger(n) && n >= 60_000 ? n : DEFAULT_INTERVAL_MS;
}

/** How often to look whether a snapshot is due (the interval itself is POR_INTERVAL_MS). */
const CHECK_MS = 60_000;

/**
 * Publishes a snapshot when the latest is older than `intervalMs` (and one at start when there is
 * none). Whether one is due is read from the database, so a restart or a second instance does not
 * publish more often (two instances racing may both publish once; each snapshot stands on its own).
 */
export function startPorSchedule(db: Kysely<Database>, now: () => Date, intervalMs: number, log: Log) {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = (async () => {
      try {
        const [latest] = await listSnapshots(db, 1);
        if (latest && now().getTime() - latest.createdAt.getTime() < intervalMs) return;
        const s = await publishSnapshot(db, now());
        log.info({ snapshot: s.id, users: s.leafCount }, 'proof of liabilities published');
      } catch (err) {
        log.warn({ err }, 'proof of liabilities not published; retrying');
      } finally {
        running = null;
      }
    })();
  };
  tick();
  const timer = setInterval(tick, CHECK_MS);
  timer.unref();
  return {
    name: 'proof of liabilities',
    close: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
