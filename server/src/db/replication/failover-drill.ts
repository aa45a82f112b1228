import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { CoinCode } from '../../modules/catalogue/catalogue.ts';
import { createLedgerService } from '../../modules/ledger/service.ts';
import type { Database } from '../schema.ts';

/**
 * The load writer of the failover drill (test and bench): `clients` loops posting 1-unit transfers, each
 * retried with ITS OWN idempotency key until acknowledged (what a client does with a failed request),
 * logging every acknowledgement. The log is what "acknowledged" means when the books are checked after.
 */
export interface WriterLog {
  /** `startedAt`: when the attempt that was acknowledged began (a retry's own start). */
  acked: { key: string; at: number; startedAt: number }[];
  failedAttempts: number;
}

export function startTransferLoad(db: Kysely<Database>, users: string[], clients: number, asset: CoinCode = 'USDC') {
  const ledger = createLedgerService({ db, now: () => new Date() });
  const log: WriterLog = { acked: [], failedAttempts: 0 };
  let stop = false;
  const done = Promise.all(
    Array.from({ length: clients }, async (_, w) => {
      for (let i = 0; !stop; i += 1) {
        const key = `fo-${w}-${i}`;
        const from = users[w % users.length] ?? '';
        const to = users[(w + 1) % users.length] ?? '';
        for (;;) {
          const startedAt = Date.now();
          try {
            await ledger.send({ idempotencyKey: key, asset, amountMinor: 1n, fromUserId: from, toUserId: to });
            log.acked.push({ key, at: Date.now(), startedAt });
            break;
          } catch {
            log.failedAttempts += 1;
            // Still trying when told to stop: the request was never acknowledged; not counted.
            if (stop) return;
            await new Promise((r) => setTimeout(r, 50));
          }
        }
      }
    }),
  );
  return {
    log,
    async stop() {
      stop = true;
      await done;
    },
  };
}

/**
 * From the kill to the first acknowledgement of an attempt begun after it (such an attempt cannot have
 * been served by the dead primary): how long a user retrying saw the service down.
 */
export function unavailableMs(log: WriterLog, killedAt: number): number {
  const first = log.acked
    .filter((a) => a.startedAt > killedAt)
    .reduce((m, a) => Math.min(m, a.at), Number.POSITIVE_INFINITY);
  return first - killedAt;
}

/** SIGKILL to the postmaster's whole process group (backends too): the machine dying, not a shutdown. */
export async function killCluster(dataDir: string): Promise<void> {
  const pid = Number.parseInt((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 1) throw new Error('no postmaster pid');
  process.kill(-pid, 'SIGKILL');
}
