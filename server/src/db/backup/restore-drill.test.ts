import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerService } from '../../modules/ledger/service.ts';
import { createDb } from '../create-db.ts';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../embedded-postgres.ts';
import { migrateToLatest } from '../migrate.ts';
import type { Database } from '../schema.ts';
import { applyRetention, listBaseBackups, takeBaseBackup } from './base-backup.ts';
import { parseRestoreTarget, restore } from './restore.ts';
import { backupIfDue, runRecordedBackup } from './schedule.ts';
import {
  type ArchiveLayout,
  archiveLayout,
  archiveSettings,
  archiveStatus,
  flushArchive,
  prepareArchive,
} from './wal-archive.ts';

/**
 * Restore drill: a primary archiving its WAL takes a base backup, then a load writer posts transfers
 * and logs each one's start and acknowledgement; at a time T in the middle of the load we note T, the
 * load goes on, then an operator's mistake wipes balances. Restoring to T into a fresh folder must give
 * books that reconcile and hold every transfer acknowledged before T and none started after it.
 */

const ASSET = 'USDC';
const WRITERS = 8;

interface LogLine {
  key: string;
  startedAt: number;
  ackedAt: number;
}

describe('continuous archiving and point-in-time restore (drill)', () => {
  let dir: string;
  let primary: EmbeddedPostgres;
  let db: Kysely<Database>;
  let layout: ArchiveLayout;
  const restored: EmbeddedPostgres[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cw-restore-drill-'));
    layout = archiveLayout(dir);
    await prepareArchive(layout);
    primary = await startEmbeddedPostgres({ dir, ephemeral: true, settings: archiveSettings(layout, 30) });
    await primary.ensureDatabase('wallet');
    db = createDb(primary.url('wallet'), { max: WRITERS + 2 });
    await migrateToLatest(db);
  }, 120_000);

  afterAll(async () => {
    await db?.destroy();
    for (const server of restored) await server.stop();
    await primary?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function load(ledger: ReturnType<typeof createLedgerService>, users: string[], prefix: string, ms: number) {
    const log: LogLine[] = [];
    const until = Date.now() + ms;
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; Date.now() < until; i += 1) {
          const key = `${prefix}-${w}-${i}`;
          const startedAt = Date.now();
          const from = users[w % users.length] ?? '';
          const to = users[(w + 1 + (i % (users.length - 1))) % users.length] ?? '';
          await ledger.send({ idempotencyKey: key, asset: ASSET, amountMinor: 1n, fromUserId: from, toUserId: to });
          log.push({ key, startedAt, ackedAt: Date.now() });
        }
      }),
    );
    return log;
  }

  it('restores to T: books reconcile, every transfer acknowledged before T is there, none started after', {
    timeout: 120_000,
  }, async () => {
    const ledger = createLedgerService({ db, now: () => new Date() });
    const users = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const { id } = await db.insertInto('users').defaultValues().returning('id').executeTakeFirstOrThrow();
        await ledger.deposit({ idempotencyKey: `fund-${id}`, userId: id, asset: ASSET, amountMinor: 1_000_000n });
        return id;
      }),
    );
    const base = await takeBaseBackup({ adminUrl: primary.url(), dataDir: primary.dataDir, layout });
    expect(base.startWal).toMatch(/^[0-9A-F]{24}$/);

    const running = load(ledger, users, 'drill', 3_000);
    await new Promise((r) => setTimeout(r, 1_500));
    const T = new Date();
    const log = await running;
    // The mistake, after T: every balance wiped.
    await sql`update ledger_accounts set balance = 0`.execute(db);
    await flushArchive(db);
    const status = await archiveStatus(db);
    expect(status.archiving).toBe(true);
    expect(status.lagSegments).toBe(0);

    const before = log.filter((l) => l.ackedAt < T.getTime()).map((l) => l.key);
    const after = log.filter((l) => l.startedAt > T.getTime()).map((l) => l.key);
    expect(before.length).toBeGreaterThan(10);
    expect(after.length).toBeGreaterThan(10);

    const into = path.join(dir, 'restored');
    const result = await restore({
      layout,
      target: T,
      into,
      passwordFile: path.join(dir, 'pg-password'),
      keepRunning: true,
    });
    if (result.server) restored.push(result.server);
    expect(result.base.id).toBe(base.id);
    expect(result.report.ok).toBe(true);

    const rdb = createDb(result.server?.url('wallet') ?? '', { max: 1 });
    try {
      const keys = new Set(
        (
          await rdb
            .selectFrom('ledger_transfers')
            .select('idempotency_key')
            .where('idempotency_key', 'like', 'drill-%')
            .execute()
        ).map((r) => r.idempotency_key),
      );
      expect(before.filter((k) => !keys.has(k))).toEqual([]);
      expect(after.filter((k) => keys.has(k))).toEqual([]);
      const { rows } = await sql<{
        n: string;
      }>`select count(*)::text as n from ledger_accounts where balance <> 0`.execute(rdb);
      expect(Number(rows[0]?.n)).toBeGreaterThan(0);
    } finally {
      await rdb.destroy();
    }
  });

  it('refuses a time before the first base; schedules through the database; keeps N bases and their WAL', {
    timeout: 60_000,
  }, async () => {
    await expect(
      restore({
        layout,
        target: new Date('2000-01-01T00:00:00Z'),
        into: path.join(dir, 'too-early'),
        passwordFile: path.join(dir, 'pg-password'),
      }),
    ).rejects.toThrow(/earliest restorable time/);
    const job = { db, adminUrl: primary.url(), dataDir: primary.dataDir, layout, keep: 2 };
    // The drill's base was taken without the schedule: none is recorded yet, so one is due.
    const first = await backupIfDue(job, 3_600_000);
    expect(typeof first).toBe('object');
    expect(await backupIfDue(job, 3_600_000)).toBe('not-due');
    // Another instance holds the claim: this one does not start a second copy.
    await sql`insert into db_base_backups (state, started_at, lease_until) values ('running', now(), now() + interval '1 hour')`.execute(
      db,
    );
    expect(await runRecordedBackup(job)).toBe('busy');
    // That instance died: once its lease lapses the attempt is failed and the next one may run (keep 2).
    await sql`update db_base_backups set lease_until = now() - interval '1 second' where state = 'running'`.execute(db);
    await sql`select pg_switch_wal()`.execute(db);
    expect(typeof (await runRecordedBackup({ ...job, keep: 3 }))).toBe('object');
    const { rows } = await sql<{
      state: string;
      n: string;
    }>`select state, count(*)::text as n from db_base_backups group by state`.execute(db);
    expect(Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]))).toEqual({ done: 2, failed: 1 });
    expect((await listBaseBackups(layout)).length).toBe(3);
    const kept = await applyRetention(layout, 2);
    expect(kept.basesDeleted).toEqual([expect.any(String)]);
    expect(kept.walDeleted).toBeGreaterThan(0);
    expect((await listBaseBackups(layout)).length).toBe(2);
  });

  it('an archive that cannot be written (disk full, permissions) shows as lag and failures, then catches up', {
    timeout: 60_000,
  }, async () => {
    // The postgres user can no longer write the folder (root, running the tests, still can).
    await chmod(layout.walDir, 0o500);
    try {
      await sql`select pg_switch_wal()`.execute(db);
      await sql`create table drill_filler as select g from generate_series(1, 1000) g`.execute(db);
      await sql`select pg_switch_wal()`.execute(db);
      let status = await archiveStatus(db);
      for (let i = 0; i < 100 && status.failedCount === 0; i += 1) {
        await new Promise((r) => setTimeout(r, 100));
        status = await archiveStatus(db);
      }
      expect(status.failedCount).toBeGreaterThan(0);
      expect(status.lagSegments).toBeGreaterThan(0);
    } finally {
      await chmod(layout.walDir, 0o750);
    }
    // After three failures the archiver sleeps until a new segment wakes it (or a minute passes).
    await sql`insert into drill_filler values (0)`.execute(db);
    await flushArchive(db, 30_000);
    expect((await archiveStatus(db)).lagSegments).toBe(0);
  });

  it('takes restore targets only with an explicit offset (the restoring host zone is not the primary one)', () => {
    expect(() => parseRestoreTarget('2026-11-27 20:00')).toThrow(/offset/);
    expect(parseRestoreTarget('2026-11-27T20:00:00+01:00')).toEqual(new Date('2026-11-27T19:00:00Z'));
    expect(parseRestoreTarget('latest')).toBe('latest');
  });
});
