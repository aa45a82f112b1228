import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcile } from '../../modules/ledger/reconcile.ts';
import { createLedgerService } from '../../modules/ledger/service.ts';
import { archiveLayout, archiveSettings, prepareArchive } from '../backup/wal-archive.ts';
import { createDb } from '../create-db.ts';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../embedded-postgres.ts';
import { migrateToLatest } from '../migrate.ts';
import type { Database } from '../schema.ts';
import { killCluster, startTransferLoad, unavailableMs } from './failover-drill.ts';
import { createPrimaryDb, splitMultiHostUrl } from './multi-host-pool.ts';
import { failover, requireSynchronousStandby, startStandby } from './standby.ts';

/**
 * Failover drill: a primary with a synchronous standby, transfer writers on the multi-host pool;
 * SIGKILL the primary's process group, promote the standby. Every acknowledged transfer must be on the
 * new primary, the books reconcile, the writers resume without a restart, and the old primary's folder
 * refuses to start. 16 writers, not the 64: proportionate for the shared two-core CI machine.
 */
const CLIENTS = 16;

describe('synchronous standby and failover (drill)', () => {
  let dir: string;
  let primary: EmbeddedPostgres;
  let standby: EmbeddedPostgres;
  let setupDb: Kysely<Database>;
  let users: string[];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cw-failover-drill-'));
    const layout = archiveLayout(dir);
    await prepareArchive(layout);
    primary = await startEmbeddedPostgres({
      dir,
      ephemeral: true,
      settings: { ...archiveSettings(layout), synchronous_commit: 'on' },
    });
    await primary.ensureDatabase('wallet');
    setupDb = createDb(primary.url('wallet'), { max: 4 });
    await migrateToLatest(setupDb);
    const ledger = createLedgerService({ db: setupDb, now: () => new Date() });
    users = [];
    for (let i = 0; i < 4; i += 1) {
      const { id } = await setupDb.insertInto('users').defaultValues().returning('id').executeTakeFirstOrThrow();
      await ledger.deposit({ idempotencyKey: `fund-${id}`, userId: id, asset: 'USDC', amountMinor: 10_000_000n });
      users.push(id);
    }
    await setupDb.destroy();
    standby = await startStandby({
      primaryAdminUrl: primary.url(),
      primaryDataDir: primary.dataDir,
      passwordFile: path.join(dir, 'pg-password'),
      layout,
      into: path.join(dir, 'standby'),
      ephemeral: true,
    });
    await requireSynchronousStandby(primary.url());
  }, 180_000);

  afterAll(async () => {
    await standby?.stop();
    await primary?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('loses no acknowledged transfer, resumes on the promoted standby, fences the old primary', {
    timeout: 120_000,
  }, async () => {
    expect(splitMultiHostUrl('postgres://u:p@a:1,b:2/w?target_session_attrs=read-write')).toEqual([
      'postgres://u:p@a:1/w',
      'postgres://u:p@b:2/w',
    ]);
    const db = createPrimaryDb([primary.url('wallet'), standby.url('wallet')], { max: CLIENTS });
    try {
      const load = startTransferLoad(db, users, CLIENTS);
      await new Promise((r) => setTimeout(r, 1_500));
      await killCluster(primary.dataDir);
      const killedAt = Date.now();
      await failover({ standbyAdminUrl: standby.url(), oldPrimaryDataDir: primary.dataDir, reason: 'drill' });
      const promotedAt = Date.now();
      // Let the writers find the new primary and carry on.
      while (!load.log.acked.some((a) => a.at > promotedAt) && Date.now() - promotedAt < 20_000) {
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 500));
      await load.stop();

      const check = createDb(standby.url('wallet'), { max: 1 });
      try {
        const keys = new Set(
          (
            await check
              .selectFrom('ledger_transfers')
              .select('idempotency_key')
              .where('idempotency_key', 'like', 'fo-%')
              .execute()
          ).map((r) => r.idempotency_key),
        );
        const lost = load.log.acked.filter((a) => !keys.has(a.key)).length;
        const figures = {
          failover_unavailable_ms: unavailableMs(load.log, killedAt),
          failover_acknowledged_lost: lost,
          failover_failed_requests: load.log.failedAttempts,
        };
        for (const [figure, value] of Object.entries(figures)) {
          console.log(JSON.stringify({ figure, value, unit: figure.endsWith('_ms') ? 'ms' : 'count' }));
        }
        expect(load.log.acked.filter((a) => a.at < killedAt).length).toBeGreaterThan(CLIENTS);
        expect(load.log.acked.filter((a) => a.at > promotedAt).length).toBeGreaterThan(0);
        expect(lost).toBe(0);
        expect(figures.failover_unavailable_ms).toBeLessThanOrEqual(10_000);
        expect((await reconcile(check)).ok).toBe(true);
        const { rows } = await sql<{ r: boolean }>`select pg_is_in_recovery() as r`.execute(check);
        expect(rows[0]?.r).toBe(false);
      } finally {
        await check.destroy();
      }
      // Split brain: the old primary's folder never starts writable again.
      await expect(startEmbeddedPostgres({ dir })).rejects.toThrow(/fenced by a failover/);
    } finally {
      await db.destroy();
    }
  });
});
