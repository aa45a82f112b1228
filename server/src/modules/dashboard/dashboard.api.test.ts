import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { fundRewards } from '../ledger/operations.ts';
import { createLedgerService } from '../ledger/service.ts';
import { addTestOperator } from '../operators/test-helpers.ts';
import { publishSnapshot } from '../por/snapshot.ts';
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
