import { describe, expect, it } from 'vitest';
import { nextIp, registerUser } from '../auth/test-helpers.ts';
import { addTestOperator } from '../operators/test-helpers.ts';
import { listApprovedForSigning } from './repository.ts';
import { reviewFixture } from './review-test-helpers.ts';
import { useWalletHarness } from './test-helpers.ts';

/**
 * Review s7 (issue 32, compliance's withdrawal hold). Attack: money leaves a held account.
 * `it.fails` passes today because the attack works; once fixed, rename to `it`.
 */
const h = useWalletHarness();
const USDT = (dollars: number) => BigInt(dollars) * 1_000_000n;

describe('review s7: compliance withdrawal hold vs review and signer', () => {
  it('a withdrawal already in review when compliance puts the hold is not paid while the hold stands', async () => {
    const deps = { db: h.db, now: h.clock.now };
    const fin = await addTestOperator(h.app, deps, 's7_fin', ['finance']);
    const comp = await addTestOperator(h.app, deps, 's7_comp', ['compliance']);
    const user = await registerUser(h);
    // A small one (one approval suffices), waiting in review.
    const { id } = await reviewFixture(h.db, { amountMinor: USDT(100), userId: user.user.id });
    const hold = await h.app.inject({
      method: 'POST',
      url: `/api/ops/users/${user.user.id}/actions`,
      remoteAddress: nextIp(),
      headers: { cookie: comp.cookie },
      payload: { action: 'hold_withdrawals', reason: 'suspected mule, investigating' },
    });
    expect(hold.json()).toMatchObject({ changed: true });
    // Finance, working the queue, approves it: nothing checks compliance's hold.
    const approved = await h.app.inject({
      method: 'POST',
      url: `/api/ops/withdrawals/${id}/approve`,
      remoteAddress: nextIp(),
      headers: { cookie: fin.cookie },
    });
    const signable = await listApprovedForSigning(h.db, ['ethereum'], 1000, h.clock.now());
    // Was: 200 review_approved, and the signer picked it up. Now refused with WITHDRAW_HELD (423, the
    // code the app already uses for compliance's hold) and not listed for the signer.
    expect({ status: approved.statusCode, signable: signable.some((w) => w.id === id) }).toEqual({
      status: 423,
      signable: false,
    });
    expect(approved.json()).toMatchObject({ code: 'WITHDRAW_HELD' });
    // Bulk goes through the same check (the CLI too: same service).
    const bulk = await h.app.inject({
      method: 'POST',
      url: '/api/ops/withdrawals/bulk-approve',
      remoteAddress: nextIp(),
      headers: { cookie: fin.cookie },
      payload: { ids: [id] },
    });
    expect(bulk.json().results).toEqual([
      { id, outcome: 'refused', code: 'WITHDRAW_HELD', message: expect.any(String) },
    ]);
    // The queue shows the hold to the reviewer.
    const queue = await h.app.inject({
      method: 'GET',
      url: '/api/ops/withdrawals/review',
      remoteAddress: nextIp(),
      headers: { cookie: fin.cookie },
    });
    const item = queue.json().items.find((i: { id: string }) => i.id === id);
    expect(item.signals.complianceStop).toMatchObject({ kind: 'hold', operator: 's7_comp' });
    // An already approved one (auto-approved before the hold) waits: not listed while the hold stands.
    const { id: approvedId } = await reviewFixture(h.db, { amountMinor: USDT(50), userId: user.user.id });
    await h.db
      .updateTable('withdrawals')
      .set({ state: 'review_approved', review: 'auto' })
      .where('id', '=', approvedId)
      .execute();
    const during = await listApprovedForSigning(h.db, ['ethereum'], 1000, h.clock.now());
    expect(during.some((w) => w.id === approvedId)).toBe(false);
    // Lifted: the approval goes through and both are signable again.
    const release = await h.app.inject({
      method: 'POST',
      url: `/api/ops/users/${user.user.id}/actions`,
      remoteAddress: nextIp(),
      headers: { cookie: comp.cookie },
      payload: { action: 'release_withdrawals', reason: 'cleared' },
    });
    expect(release.json()).toMatchObject({ changed: true });
    const again = await h.app.inject({
      method: 'POST',
      url: `/api/ops/withdrawals/${id}/approve`,
      remoteAddress: nextIp(),
      headers: { cookie: fin.cookie },
    });
    expect(again.statusCode).toBe(200);
    const after = (await listApprovedForSigning(h.db, ['ethereum'], 1000, h.clock.now())).map((w) => w.id);
    expect(after).toEqual(expect.arrayContaining([id, approvedId]));
  });
});
