import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { listAudit } from '../audit/repository.ts';
import { nextIp, registerUser } from '../auth/test-helpers.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { addTestOperator, type TestOperator } from '../operators/test-helpers.ts';
import { PriceUnavailableError } from '../prices/errors.ts';
import { freezeAccount } from '../security/freeze.ts';
import { listApprovedForSigning } from './repository.ts';
import { createWithdrawalReview } from './review-service.ts';
import { deciding, reviewFixture } from './review-test-helpers.ts';
import { useWalletHarness } from './test-helpers.ts';

/**
 * Issue 32, withdrawal review with four eyes, through /api/ops/withdrawals (and the service beneath
 * it for what a route cannot stage: no prices, concurrent transactions, a setting changed mid-review).
 * The harness prices USDT at $1; the second-approval value is the default $10,000.
 */
const h = useWalletHarness();
const USDT = (dollars: number) => BigInt(dollars) * 1_000_000n;
const ops = {} as Record<'a' | 'b' | 'c' | 'comp' | 'sup', TestOperator>;

beforeAll(async () => {
  const deps = { db: h.db, now: h.clock.now };
  ops.a = await addTestOperator(h.app, deps, 'fin_alice', ['finance']);
  ops.b = await addTestOperator(h.app, deps, 'fin_bob', ['finance']);
  ops.c = await addTestOperator(h.app, deps, 'fin_carol', ['finance']);
  ops.comp = await addTestOperator(h.app, deps, 'comp_dave', ['compliance']);
  ops.sup = await addTestOperator(h.app, deps, 'sup_erin', ['support']);
});

const call = (op: TestOperator, method: 'GET' | 'POST', url: string, payload?: object) =>
  h.app.inject({
    method,
    url,
    remoteAddress: nextIp(),
    headers: { cookie: op.cookie },
    ...(payload ? { payload } : {}),
  });
const approve = (op: TestOperator, id: string) => call(op, 'POST', `/api/ops/withdrawals/${id}/approve`);
const stateOf = async (id: string) =>
  (await h.db.selectFrom('withdrawals').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state;

describe('four eyes over /api/ops/withdrawals', () => {
  it('a large one: A approves and it waits; A again is refused; B approves; the user saw in_review throughout', async () => {
    const user = await registerUser(h);
    const { id } = await reviewFixture(h.db, { amountMinor: USDT(20_000), userId: user.user.id });
    const first = await approve(ops.a, id);
    expect(first.json()).toEqual({ id, state: 'awaiting_second_approval', fourEyes: 'above_threshold' });
    const mine = await h.app.inject({
      method: 'GET',
      url: `/api/wallet/withdrawals/${id}`,
      headers: { cookie: user.cookie },
    });
    expect(mine.json().state).toBe('in_review');
    const again = await approve(ops.a, id);
    expect(again.statusCode).toBe(403);
    expect(again.json().message).toMatch(/Four eyes/);
    expect((await approve(ops.comp, id)).statusCode).toBe(403); // compliance never approves
    expect((await approve(ops.sup, id)).statusCode).toBe(403);
    const second = await approve(ops.b, id);
    expect(second.json()).toMatchObject({ id, state: 'review_approved' });
    expect((await approve(ops.c, id)).statusCode).toBe(409);
    const decisions = await h.db
      .selectFrom('withdrawal_decisions')
      .selectAll()
      .where('withdrawal_id', '=', id)
      .execute();
    expect(decisions.map((d) => [d.operator_name, d.decision, d.state_after])).toEqual([
      ['fin_alice', 'approve', 'awaiting_second_approval'],
      ['fin_bob', 'approve', 'review_approved'],
    ]);
    expect(decisions[0]?.value_usd_cents).toBe('2000000'); // $20,000 in cents
    const events = (await listAudit(h.db, { userId: user.user.id })).map((e) => e.event);
    expect(events).toContain('withdrawal_first_approval');
    expect(events.filter((e) => e === 'withdrawal_approved')).toHaveLength(1);
  });

  it('a small one needs one approval; a rejection by either approver ends a large one, funds back', async () => {
    const small = await reviewFixture(h.db, { amountMinor: USDT(9_999) });
    expect((await approve(ops.a, small.id)).json().state).toBe('review_approved');

    const large = await reviewFixture(h.db, { amountMinor: USDT(50_000) });
    await approve(ops.a, large.id);
    const noReason = await call(ops.a, 'POST', `/api/ops/withdrawals/${large.id}/reject`, { reason: '' });
    expect(noReason.statusCode).toBe(400);
    const rejected = await call(ops.a, 'POST', `/api/ops/withdrawals/${large.id}/reject`, { reason: 'mule pattern' });
    expect(rejected.json().state).toBe('review_rejected');
    expect((await approve(ops.b, large.id)).statusCode).toBe(409);
    expect(await balanceOf(h.db, 'user_available', large.userId, 'USDT')).toBe(USDT(50_000));
    expect(await balanceOf(h.db, 'user_locked', large.userId, 'USDT')).toBe(0n);
    const row = await h.db.selectFrom('withdrawals').selectAll().where('id', '=', large.id).executeTakeFirstOrThrow();
    expect(row.reason).toBe('mule pattern');

    // Compliance may reject too, from the first review state.
    const other = await reviewFixture(h.db, { amountMinor: USDT(10) });
    const byComp = await call(ops.comp, 'POST', `/api/ops/withdrawals/${other.id}/reject`, { reason: 'sanctions hit' });
    expect(byComp.json().state).toBe('review_rejected');
    expect((await call(ops.sup, 'POST', `/api/ops/withdrawals/${other.id}/reject`, { reason: 'x' })).statusCode).toBe(
      403,
    );
  });

  it('a second look makes a small one need two approvals, and its asker cannot give the second', async () => {
    const w = await reviewFixture(h.db, { amountMinor: USDT(100) });
    const look = await call(ops.c, 'POST', `/api/ops/withdrawals/${w.id}/second-look`, {
      reason: 'new address, new device',
    });
    expect(look.json()).toMatchObject({ state: 'in_review', fourEyes: 'second_look' });
    expect(
      (await call(ops.c, 'POST', `/api/ops/withdrawals/${w.id}/second-look`, { reason: 'again' })).statusCode,
    ).toBe(409);
    expect((await approve(ops.a, w.id)).json()).toMatchObject({
      state: 'awaiting_second_approval',
      fourEyes: 'second_look',
    });
    expect((await approve(ops.c, w.id)).statusCode).toBe(403);
    expect((await approve(ops.b, w.id)).json().state).toBe('review_approved');
  });

  it('the queue: oldest first, paged, both review states, risk signals; support cannot open it', async () => {
    const base = h.clock.now().getTime() - 3_600_000;
    const older = await reviewFixture(h.db, { amountMinor: USDT(1), at: new Date(base - 1000) });
    const newer = await reviewFixture(h.db, { amountMinor: USDT(2), at: new Date(base) });
    expect((await call(ops.sup, 'GET', '/api/ops/withdrawals/review')).statusCode).toBe(403);
    const all: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 50; page += 1) {
      const query: string = after ? `?limit=2&after=${encodeURIComponent(after)}` : '?limit=2';
      const res = await call(ops.comp, 'GET', `/api/ops/withdrawals/review${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { items: { id: string; createdAt: string; signals: object }[]; next: string | null };
      expect(body.items.length).toBeLessThanOrEqual(2);
      all.push(...body.items.map((i) => i.id));
      after = body.next;
      if (!after) break;
    }
    expect(all.indexOf(older.id)).toBeGreaterThanOrEqual(0);
    expect(all.indexOf(older.id)).toBeLessThan(all.indexOf(newer.id));
    const first = await call(ops.a, 'GET', '/api/ops/withdrawals/review?limit=50');
    expect(first.json().secondApprovalUsdCents).toBe('1000000');
    const item = (first.json().items as { id: string; signals: Record<string, unknown>; valueUsdCents: string }[]).find(
      (i) => i.id === older.id,
    );
    expect(item?.valueUsdCents).toBe('100');
    expect(item?.signals).toMatchObject({ firstWithdrawal: true, addressPaidBefore: false, ownAddress: null });
  });

  it('a thousand idle rows: one bounded page, a cursor on, the count bounded', async () => {
    const userId = await createUser(h.db);
    const at = new Date(h.clock.now().getTime() - 7 * 24 * 3_600_000);
    await sql`insert into withdrawals (user_id, idempotency_key, coin, network, address, amount_minor, fee_minor, state, created_at, updated_at)
      select ${userId}, 'idle-' || i, 'USDT', 'ethereum', ${'0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'}, 1000000, 1, 'in_review',
             ${at}::timestamptz + i * interval '1 second', ${at}
      from generate_series(1, 1000) i`.execute(h.db);
    const started = Date.now();
    const res = await call(ops.comp, 'GET', '/api/ops/withdrawals/review?limit=50');
    const tookMs = Date.now() - started;
    const body = res.json() as { items: unknown[]; next: string | null; waiting: number };
    expect(body.items).toHaveLength(50);
    expect(body.next).not.toBeNull();
    expect(body.waiting).toBeGreaterThanOrEqual(1000);
    expect(tookMs).toBeLessThan(10_000);
    expect((await call(ops.comp, 'GET', '/api/ops/withdrawals/review?limit=51')).statusCode).toBe(400);
    expect((await call(ops.comp, 'GET', '/api/ops/withdrawals/review?after=nonsense')).statusCode).toBe(400);
  });

  it('bulk approve: each checked on its own; a large one is left for its own review, a bad id refused', async () => {
    const s1 = await reviewFixture(h.db, { amountMinor: USDT(10) });
    const s2 = await reviewFixture(h.db, { amountMinor: USDT(20) });
    const big = await reviewFixture(h.db, { amountMinor: USDT(10_001) });
    const gone = '00000000-0000-4000-8000-0000000000ff';
    const res = await call(ops.a, 'POST', '/api/ops/withdrawals/bulk-approve', { ids: [s1.id, s2.id, big.id, gone] });
    expect(res.json().results).toEqual([
      { id: s1.id, outcome: 'approved' },
      { id: s2.id, outcome: 'approved' },
      { id: big.id, outcome: 'needs_four_eyes' },
      { id: gone, outcome: 'refused', code: 'NOT_FOUND', message: 'No such withdrawal' },
    ]);
    expect(await stateOf(big.id)).toBe('in_review');
    expect((await call(ops.comp, 'POST', '/api/ops/withdrawals/bulk-approve', { ids: [s1.id] })).statusCode).toBe(403);
  });
});

describe('four eyes in the service (prices, races, settings)', () => {
  it('no fresh price: fail closed (two approvals, said why); a stale one counts as none', async () => {
    const w = await reviewFixture(h.db, { amountMinor: USDT(1) });
    const noFeed = createWithdrawalReview({ db: h.db, now: h.clock.now, prices: null });
    const r = await noFeed.approve(w.id, await deciding(h.db, 'x_a'));
    expect(r).toMatchObject({ outcome: 'awaiting_second_approval', because: 'price_unavailable' });
    const stale = createWithdrawalReview({
      db: h.db,
      now: h.clock.now,
      prices: {
        price: () => {
          throw new PriceUnavailableError();
        },
      },
    });
    const w2 = await reviewFixture(h.db, { amountMinor: USDT(1) });
    expect(await stale.approve(w2.id, await deciding(h.db, 'x_b'))).toMatchObject({ because: 'price_unavailable' });
  });

  it('a lower setting later does not undo a needed second approval', async () => {
    const strict = createWithdrawalReview({ db: h.db, now: h.clock.now, prices: null });
    const w = await reviewFixture(h.db, { amountMinor: USDT(50) });
    const a = await deciding(h.db, 'y_a');
    await strict.approve(w.id, a);
    // The setting goes up to $1,000,000 (and prices come back) before the second approval.
    const lax = createWithdrawalReview({
      db: h.db,
      now: h.clock.now,
      prices: { price: () => ({ num: 1n, den: 1n }) },
      thresholdUsdCents: () => 100_000_000n,
    });
    await expect(lax.approve(w.id, a)).rejects.toThrow(/Four eyes/);
    expect(await stateOf(w.id)).toBe('awaiting_second_approval');
  });

  it('a freeze of the account rejects one awaiting its second approval (funds back), so no later approval pays it', async () => {
    const review = createWithdrawalReview({ db: h.db, now: h.clock.now, prices: null });
    const w = await reviewFixture(h.db, { amountMinor: USDT(40_000) });
    await review.approve(w.id, await deciding(h.db, 'f_a'));
    await h.db
      .transaction()
      .execute((trx) => freezeAccount(trx, { userId: w.userId, via: 'settings', ip: null, now: h.clock.now() }));
    expect(await stateOf(w.id)).toBe('review_rejected');
    expect(await balanceOf(h.db, 'user_available', w.userId, 'USDT')).toBe(USDT(40_000));
    await expect(review.approve(w.id, await deciding(h.db, 'f_b'))).rejects.toThrow(/in review/);
  });

  it('two approvals racing in two transactions: exactly one approval goes through, the signer sees it once', async () => {
    const review = createWithdrawalReview({ db: h.db, now: h.clock.now, prices: null });
    const w = await reviewFixture(h.db, { amountMinor: USDT(30_000) });
    const a = await deciding(h.db, 'z_a');
    // The same operator twice at once: one first approval, the other refused.
    const same = await Promise.allSettled([review.approve(w.id, a), review.approve(w.id, a)]);
    expect(same.map((s) => s.status).sort()).toEqual(['fulfilled', 'rejected']);
    // Two others at once: one second approval, the other finds it decided.
    const race = await Promise.allSettled([
      review.approve(w.id, await deciding(h.db, 'z_b')),
      review.approve(w.id, await deciding(h.db, 'z_c')),
    ]);
    expect(race.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
    expect(race.find((s) => s.status === 'rejected')?.reason?.message).toMatch(/in review/);
    expect(await stateOf(w.id)).toBe('review_approved');
    const signable = await listApprovedForSigning(h.db, ['ethereum'], 1000, h.clock.now());
    expect(signable.filter((s) => s.id === w.id)).toHaveLength(1);
    const approvals = await h.db
      .selectFrom('withdrawal_decisions')
      .select('operator_name')
      .where('withdrawal_id', '=', w.id)
      .execute();
    expect(approvals).toHaveLength(2);
    const approvedEvents = (await listAudit(h.db, { userId: w.userId })).filter(
      (e) => e.event === 'withdrawal_approved',
    );
    expect(approvedEvents).toHaveLength(1);
  });
});
