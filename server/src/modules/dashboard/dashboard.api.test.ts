import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { recordShipping } from '../../db/backup/s3-shipping-record.ts';
import type { ArchiveStatus } from '../../db/backup/wal-archive.ts';
import { registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { fundRewards } from '../ledger/operations.ts';
import { createLedgerService } from '../ledger/service.ts';
import { addTestOperator } from '../operators/test-helpers.ts';
import { publishSnapshot } from '../por/snapshot.ts';
import { ARCHIVE_WARN_AFTER_S, archiveWarnings } from './archive-figures.ts';
import { claimDueCheck, MIN_CHECK_GAP_MS, runMoneyCheck } from './money-check.ts';

/**
 * Issue 32, the money dashboard (finance): the last scheduled check (reconcile, liabilities, hot
 * wallets on chain) is served, never recomputed per request; a check asked for from the console is
 * recorded first and taken by the schedule, at most one a minute; each figure from a fixture.
 */
const h = useAuthHarness();
const deps = () => ({ db: h.db, now: h.clock.now });
const INTERVAL_MS = 10 * 60_000;

async function dashboard(cookie: string) {
  const res = await h.app.inject({ method: 'GET', url: '/api/ops/dashboard', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('the money dashboard', () => {
  it('serves each figure from its fixture, and the reconcile only from a finished check', async () => {
    const finance = await addTestOperator(h.app, deps(), 'dash_fin', ['finance']);
    const empty = await dashboard(finance.cookie);
    expect(empty.check).toMatchObject({ state: 'never', reconcile: null, pending: null });
    expect(empty.proofOfLiabilities).toBeNull();

    const user = await registerUser(h);
    await createLedgerService(deps()).deposit({
      idempotencyKey: `dash:${randomUUID()}`,
      userId: user.user.id,
      asset: 'USDT',
      amountMinor: 12_345_678n,
    });
    await h.db
      .transaction()
      .execute((trx) =>
        fundRewards(
          trx,
          { idempotencyKey: `dash-pool:${randomUUID()}`, asset: 'USDT', amountMinor: 500_000_000n },
          h.clock.now(),
        ),
      );
    await publishSnapshot(h.db, h.clock.now());
    const at = h.clock.now();
    await h.db
      .insertInto('reorg_alerts')
      .values({
        network: 'ethereum',
        fork_block: '1234',
        deposits: 2,
        created_at: at,
        resolved_at: null,
        resolution: null,
      })
      .execute();
    await h.db
      .insertInto('chain_alerts')
      .values({
        network: 'bsc',
        kind: 'unexplained_balance',
        dedupe_key: randomUUID(),
        detail: 'hot wallet moved',
        created_at: at,
        resolved_at: null,
        resolution: null,
      })
      .execute();

    // Finance asks for a check: recorded, then taken by the schedule (here, by hand).
    const asked = await h.app.inject({
      method: 'POST',
      url: '/api/ops/dashboard/check',
      headers: { cookie: finance.cookie },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toEqual({ pending: 'requested' });
    expect((await dashboard(finance.cookie)).check.pending).toBe('requested');
    const id = await claimDueCheck(h.db, h.clock.now(), INTERVAL_MS);
    expect(id).not.toBeNull();
    await runMoneyCheck(h.db, id as string, h.clock.now, async () => [
      { network: 'ethereum', hot: [{ asset: 'ETH@ethereum', chain: 10n, book: 10n }], deposits: [] },
    ]);

    const d = await dashboard(finance.cookie);
    expect(d.check).toMatchObject({ state: 'ok', requestedBy: 'dash_fin', pending: null });
    expect(d.check.reconcile).toMatchObject({ ok: true, balanceMismatchCount: 0, brokenChains: 0 });
    expect(d.check.custodyOnChain).toEqual([
      {
        network: 'ethereum',
        skipped: null,
        hot: [{ asset: 'ETH@ethereum', decimals: 18, minor: '10', bookMinor: '10' }],
      },
    ]);
    expect(d.proofOfLiabilities.totals).toContainEqual({ asset: 'USDT', decimals: 6, minor: '12345678' });
    expect(d.proofOfLiabilities.rootHash).toMatch(/^[0-9a-f]{64}$/);
    expect(d.rewardsPool).toContainEqual({ asset: 'USDT', decimals: 6, minor: '500000000' });
    const usdt = d.custody.perCoin.find((c: { coin: string }) => c.coin === 'USDT');
    expect(usdt).toMatchObject({ liabilities: { minor: '12345678' }, covered: false });
    expect(d.alerts).toMatchObject({ reorgCount: 1, chainCount: 1 });
    expect(d.alerts.reorgs[0]).toMatchObject({ network: 'ethereum', forkBlock: '1234', deposits: 2 });
    expect(d.stuckWithdrawals).toMatchObject({ count: 0, stuckAfterMinutes: 30 });
  });

  it('starts no second check within a minute (asking again waits), and a hot-wallet mismatch shows', async () => {
    const finance = await addTestOperator(h.app, deps(), 'dash_fin2', ['finance']);
    h.clock.advance(INTERVAL_MS);
    const first = await claimDueCheck(h.db, h.clock.now(), INTERVAL_MS);
    expect(first).not.toBeNull();
    await h.app.inject({ method: 'POST', url: '/api/ops/dashboard/check', headers: { cookie: finance.cookie } });
    expect(await claimDueCheck(h.db, h.clock.now(), INTERVAL_MS)).toBeNull();
    await runMoneyCheck(h.db, first as string, h.clock.now, async () => [
      { network: 'bsc', hot: [{ asset: 'BNB@bsc', chain: 9n, book: 10n }], deposits: [] },
    ]);
    expect((await dashboard(finance.cookie)).check).toMatchObject({ state: 'mismatch', pending: 'requested' });
    h.clock.advance(MIN_CHECK_GAP_MS);
    const second = await claimDueCheck(h.db, h.clock.now(), INTERVAL_MS);
    expect(second).not.toBeNull();
    expect(await claimDueCheck(h.db, h.clock.now(), INTERVAL_MS)).toBeNull();
  });
});

describe('the WAL archive on the money dashboard (issue 34)', () => {
  it('shows the last base backup and the S3 shipping lag, and warns past the bound', async () => {
    const finance = await addTestOperator(h.app, deps(), 'dash_fin3', ['finance']);
    const at = h.clock.now();
    const minutesAgo = (m: number) => new Date(at.getTime() - m * 60_000);
    await sql`insert into db_base_backups (state, started_at, lease_until, finished_at, backup_id, start_wal)
      values ('done', ${minutesAgo(70)}, ${minutesAgo(60)}, ${minutesAgo(61)}, 'base-1', '000000010000000000000002')`.execute(
      h.db,
    );
    const before = (await dashboard(finance.cookie)).archive;
    expect(before.s3).toBeNull(); // never shipped: S3 not configured
    expect(before.lastBaseBackup).toEqual({ id: 'base-1', finishedAt: minutesAgo(61).toISOString(), ageSeconds: 3660 });
    expect(before.warnAfterSeconds).toBe(ARCHIVE_WARN_AFTER_S);
    // pg_stat_archiver is read with the app's role: figures, not nulls (whatever the test cluster's archive_mode).
    expect(typeof before.waitingSegments).toBe('number');
    expect(before.warnings).not.toContain('s3_behind');

    // The bucket has lacked 3 segments since the last success 10 minutes ago: past the 5-minute bound.
    await recordShipping(h.db, { at: minutesAgo(10), lagSegments: 0 });
    await recordShipping(h.db, { at: minutesAgo(1), lagSegments: 3, error: 'S3 unreachable' });
    const behind = (await dashboard(finance.cookie)).archive;
    expect(behind.state).toBe('warning');
    expect(behind.warnings).toContain('s3_behind');
    expect(behind.s3).toEqual({
      waitingSegments: 3,
      lastSuccessAt: minutesAgo(10).toISOString(),
      lagSeconds: 600,
      failedRuns: 1,
      lastError: 'S3 unreachable',
      updatedAt: minutesAgo(1).toISOString(),
    });

    await recordShipping(h.db, { at, lagSegments: 0 });
    const caughtUp = (await dashboard(finance.cookie)).archive;
    expect(caughtUp.warnings).not.toContain('s3_behind');
    expect(caughtUp.s3).toMatchObject({ waitingSegments: 0, lagSeconds: 0, lastSuccessAt: at.toISOString() });
  });

  it('warns when segments wait past the bound, the archiver fails, or the base backup is two days old', () => {
    const at = new Date('2026-01-10T12:00:00Z');
    const ago = (s: number) => new Date(at.getTime() - s * 1000);
    const status = (over: Partial<ArchiveStatus>): ArchiveStatus => ({
      archiving: true,
      currentWal: '000000010000000000000010',
      lastArchivedWal: '00000001000000000000000F',
      lastArchivedAt: ago(30),
      failedCount: 0,
      lastFailedWal: null,
      lastFailedAt: null,
      lagSegments: 0,
      lagSeconds: 0,
      ...over,
    });
    const base = { finished_at: ago(3600), backup_id: 'b' };
    const warn = (s: ArchiveStatus, b = base) => archiveWarnings({ status: s, base: b, shipping: null }, at);
    expect(warn(status({}))).toEqual([]);
    // An idle primary (nothing waiting) never warns, however old its last segment.
    expect(warn(status({ lastArchivedAt: ago(86_400) }))).toEqual([]);
    expect(warn(status({ lagSegments: 2, lastArchivedAt: ago(ARCHIVE_WARN_AFTER_S) }))).toEqual([]);
    expect(warn(status({ lagSegments: 2, lastArchivedAt: ago(ARCHIVE_WARN_AFTER_S + 1) }))).toEqual(['archive_behind']);
    expect(warn(status({ lastFailedAt: ago(5) }))).toEqual(['archive_failing']);
    expect(warn(status({}), { finished_at: ago(49 * 3600), backup_id: 'b' })).toEqual(['base_backup_old']);
    expect(archiveWarnings({ status: status({}), base: null, shipping: null }, at)).toEqual(['base_backup_old']);
    // Archiving off: no archive warnings at all.
    expect(archiveWarnings({ status: status({ archiving: false }), base: null, shipping: null }, at)).toEqual([]);
  });
});
