import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { buildTestApp, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { createLedgerService } from '../ledger/service.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { transition } from '../withdrawals/repository.ts';
import type { MoonPayClient } from './moonpay/client.ts';
import { sellAlertsSince } from './provider-events.ts';
import { lockOrder, transitionOrder } from './repository.ts';
import type { SandboxRamp } from './sandbox/sandbox-server.ts';
import { repairFailedSells } from './sell-repair.ts';
import { createUserIn, signedWebhook, startTestProvider } from './test-helpers.ts';

/**
 * Rows written before the sell-failure fix (issue 36 review, H3): a sell already failed/refunded
 * whose payout is still review_approved would be signed later, and a repeated failure event is
 * stale. The repair step (run by the ramp sweep at start and on each pass) cancels and unlocks such
 * payouts, and moves failed sells whose transfer was already signed to refund_pending (alerted).
 */
const database = useTestDatabase();
const XPUB =
  'xpub6BosfCnifzxcFwrSzQiqu2DBVTshkCXacvNsWGYJVVhhawA7d4R5WSWGFNbi8Aw6ZRc1brxMyWMzG3DSSSSoekkudhUd9yLb6qx39T9nMdj';
const FUNDS = 1000n * 10n ** 6n;
const AMOUNT = 20n * 10n ** 6n;
let sandbox: SandboxRamp;
let client: MoonPayClient;
let app: App;
const at = new Date('2030-01-02T03:04:05.000Z');

beforeAll(async () => {
  ({ sandbox, client } = await startTestProvider());
  app = buildTestApp({
    db: database.db,
    now: () => at,
    deposits: { xpubs: { ethereum: XPUB } },
    ramp: { provider: () => client, networks: () => new Set(['ethereum'] as const), wallClockMs: Date.now },
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await sandbox.close();
});

/** A sell whose payout was placed (review_approved), as the old code left it. */
async function sellWithPayout(): Promise<{ userId: string; id: string; withdrawalId: string }> {
  const userId = await createUserIn(database.db, 'IN');
  await createLedgerService({ db: database.db, now: () => at }).deposit({
    idempotencyKey: `f:${userId}`,
    userId,
    asset: 'USDT',
    amountMinor: FUNDS,
  });
  const method = await database.db
    .insertInto('payment_methods')
    .values({ user_id: userId, kind: 'upi', shown: '{"upi":"a***@upi"}', sealed: null, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  const headers = { [TEST_USER_HEADER]: userId };
  const quote = await app.inject({
    method: 'POST',
    url: '/api/ramp/quotes',
    headers,
    payload: { side: 'sell', coin: 'USDT', network: 'ethereum', amountMinor: AMOUNT.toString(), method: 'upi' },
  });
  const order = await app.inject({
    method: 'POST',
    url: '/api/ramp/orders',
    headers,
    payload: {
      quoteId: quote.json().id,
      termsAccepted: true,
      payoutMethodId: method.id,
      idempotencyKey: `k-${userId}`,
    },
  });
  const id = order.json().id as string;
  const w = signedWebhook('sell_transaction_created', {
    id: `mp-${id}`,
    status: 'waitingForDeposit',
    externalTransactionId: id,
    depositWalletAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
    baseCurrencyCode: 'usdt',
    baseCurrencyAmount: '20',
    updatedAt: 'u1',
  });
  const res = await app.inject({
    method: 'POST',
    url: '/api/ramp/webhooks/moonpay',
    headers: { 'content-type': 'application/json', 'moonpay-signature-v2': w.header },
    payload: w.body,
  });
  expect(res.json().outcome).toBe('applied');
  const row = await database.db
    .selectFrom('ramp_orders')
    .select('withdrawal_id')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { userId, id, withdrawalId: row.withdrawal_id as string };
}

/** What the old code did on a failure: the order failed (or refunded), the payout left as it was. */
async function oldFailure(orderId: string, to: 'failed' | 'refunded') {
  await database.db.transaction().execute(async (trx) => {
    let order = await lockOrder(trx, orderId);
    if (!order) throw new Error('no order');
    if (to === 'refunded') order = await transitionOrder(trx, order, 'processing', { now: at });
    await transitionOrder(trx, order, to, { reason: 'old', now: at });
  });
}

const stateOf = (orderId: string) =>
  database.db
    .selectFrom('ramp_orders as o')
    .innerJoin('withdrawals as w', 'w.id', 'o.withdrawal_id')
    .select(['o.state', 'w.state as w_state'])
    .where('o.id', '=', orderId)
    .executeTakeFirstOrThrow();

describe('repairing sells failed before the fix', () => {
  it.each(['failed', 'refunded'] as const)('a %s sell with an unsigned payout: cancelled, lock back', async (to) => {
    const s = await sellWithPayout();
    await oldFailure(s.id, to);
    expect(await repairFailedSells(database.db, at)).toMatchObject({ cancelled: 1 });
    expect(await stateOf(s.id)).toEqual({ state: to, w_state: 'review_rejected' });
    expect(await balanceOf(database.db, 'user_locked', s.userId, 'USDT')).toBe(0n);
    expect(await balanceOf(database.db, 'user_available', s.userId, 'USDT')).toBe(FUNDS);
    // Run again (another instance, the next pass): nothing more.
    expect(await repairFailedSells(database.db, at)).toEqual({ cancelled: 0, refundPending: 0 });
    expect((await reconcile(database.db)).ok).toBe(true);
  });

  it('a failed sell whose transfer was already signed: refund_pending, alerted', async () => {
    const s = await sellWithPayout();
    await transition(database.db, s.withdrawalId, 'review_approved', 'transfer_in_progress', {}, at);
    await oldFailure(s.id, 'failed');
    expect(await repairFailedSells(database.db, at)).toMatchObject({ refundPending: 1 });
    expect(await stateOf(s.id)).toEqual({ state: 'refund_pending', w_state: 'transfer_in_progress' });
    expect((await sellAlertsSince(database.db, new Date(at.getTime() - 1))).map((a) => a.id)).toContain(s.id);
    expect(await balanceOf(database.db, 'user_locked', s.userId, 'USDT')).toBeGreaterThan(0n);
  });
});
