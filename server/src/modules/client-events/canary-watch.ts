import { readFile } from 'node:fs/promises';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { StoredRegistry } from '../../http/remote-canary.ts';
import { judgeCanary } from './canary-health.ts';
import { countsByVersion, purgeOldClientEvents, type VersionCounts } from './repository.ts';

/** How often the leader looks at running canaries. */
export const CANARY_WATCH_EVERY_MS = 2_000;
/** A canary without a start time is judged on the reports of this last while. */
const UNDATED_WINDOW_MS = 24 * 3_600_000;

export interface CanaryWatchDeps {
  db: Kysely<Database>;
  /** `<STATIC_DIR>/remotes.json`, the registry every instance reads. */
  registryFile: string;
  /** The lease's fence: first statement of the decision's transaction. */
  fence: (trx: Transaction<Database>) => Promise<void>;
  /** Ends the canary in the registry (compare-and-swap on its version, under the registry lock). */
  endCanary: (remote: string, canaryVersion: string) => Promise<void>;
  now?: () => Date;
  onError?: (error: unknown) => void;
}

const none: VersionCounts = { version: '', loads: 0, failures: 0, codes: {} };

/**
 * One pass of the canary watch (run by the instance holding the `canary-watch` lease): each remote
 * whose canary has autoRollback is judged on its reports against its stable's; a rollback is first
 * recorded (fenced) in canary_auto_rollbacks, then done in the registry. A decision recorded and not
 * done (a crash, a locked registry) is done on the next pass. Returns the remotes rolled back.
 */
export async function watchCanariesOnce(deps: CanaryWatchDeps): Promise<string[]> {
  const registry = await readRegistry(deps.registryFile);
  if (!registry) return [];
  const rolledBack: string[] = [];
  for (const [remote, entry] of Object.entries(registry.remotes ?? {})) {
    const canary = entry.canary;
    if (!canary?.autoRollback) continue;
    const startedMs = canary.startedAt ? Date.parse(canary.startedAt) : Number.NaN;
    const since = new Date(
      Number.isFinite(startedMs) ? startedMs : (deps.now?.() ?? new Date()).getTime() - UNDATED_WINDOW_MS,
    );
    const counts = await countsByVersion(deps.db, remote, since);
    const ofCanary = counts.find((c) => c.version === canary.version) ?? none;
    const ofStable = counts.find((c) => c.version === entry.version) ?? none;
    const verdict = judgeCanary(ofCanary, ofStable, canary.autoRollback);
    const decided = await deps.db
      .selectFrom('canary_auto_rollbacks')
      .select('done_at')
      .where('remote', '=', remote)
      .where('canary_version', '=', canary.version)
      .executeTakeFirst();
    if (verdict.action !== 'rollback' && !decided) continue;
    if (!decided) {
      await deps.db.transaction().execute(async (trx) => {
        await deps.fence(trx);
        await trx
          .insertInto('canary_auto_rollbacks')
          .values({
            remote,
            canary_version: canary.version,
            stable_version: entry.version,
            canary_loads: String(ofCanary.loads),
            canary_failures: String(ofCanary.failures),
            stable_loads: String(ofStable.loads),
            stable_failures: String(ofStable.failures),
            margin_pct: canary.autoRollback?.marginPct ?? 0,
            min_loads: canary.autoRollback?.minLoads ?? 1,
            done_at: null,
          })
          .onConflict((oc) => oc.columns(['remote', 'canary_version']).doNothing())
          .execute();
      });
    }
    await deps.endCanary(remote, canary.version);
    await deps.db
      .updateTable('canary_auto_rollbacks')
      .set({ done_at: new Date() })
      .where('remote', '=', remote)
      .where('canary_version', '=', canary.version)
      .execute();
    rolledBack.push(remote);
  }
  return rolledBack;
}

async function readRegistry(file: string): Promise<StoredRegistry | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as StoredRegistry;
  } catch {
    return null;
  }
}

/** Starts the watch on this (leading) instance; returns its stop. Also purges old report buckets. */
export function startCanaryWatch(deps: CanaryWatchDeps): () => Promise<void> {
  let stopped = false;
  let passes = 0;
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    if (stopped) return;
    running = running.then(async () => {
      passes += 1;
      await watchCanariesOnce(deps).catch((error: unknown) => deps.onError?.(error));
      if (passes % 1_800 === 0) await purgeOldClientEvents(deps.db).catch((error: unknown) => deps.onError?.(error));
    });
  }, CANARY_WATCH_EVERY_MS);
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
