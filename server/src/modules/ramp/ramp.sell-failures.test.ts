import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { buildTestApp, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { createLedgerService } from '../ledger/service.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { transition } from '../withdrawals/repository.ts';
import type { MoonPayClient } from './moonpay/client.ts';
import { completeSettledSells, failBrokenTransfers } from './provider-events.ts';
import { lockOrder, transitionOrder } from './repository.ts';
import type { SandboxRamp } from './sandbox/sandbox-server.ts';
import { openSellAlerts } from './sell-alerts.ts';
import { createUserIn, plantWithdrawCode, signedWebhook, startTestProvider } from './test-helpers.ts';

/**
 * Sells the provider fails: before the payout is placed (no coins may be sent to a closed
 * transaction), after it is placed but before the signer took it (cancelled, lock back), after it
 * was signed (refund_pending until the provider refunds); a status without the provider's address;
 * a provider transaction that does not match the order (issue 36, items 1-4).
 */
const database = useTestDatabase();
const XPUB =
  'xpub6BosfCnifzxcFwrSzQiqu2DBVTshkCXacvNsWGYJVVhhawA7d4R5WSWGFNbi8Aw6ZRc1brxMyWMzG3DSSSSoekkudhUd9yLb6qx39T9nMdj';
const FUNDS = 1000n * 10n ** 6n;
const AMOUNT = 20n * 10n ** 6n;
const DEPOSIT_ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
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

async function placeSell(): Promise<{ userId: string; id: string; held: bigint }> {
  const userId = await createUserIn(database.db, 'IN');
  await createLedgerService({ db: database.db, now: () => at }).deposit({
    idempotencyKey: `f:${userId}`,
    userId,
    asset: 'USDT',
    amountMinor: FUNDS,
  });
  const method = await database.db
    .insertInto('payment_methods')
    .values({
      user_id: userId,
      kind: 'upi',
      shown: JSON.stringify({ upi: 'a***@upi' }),
      sealed: null,
      created_at: at,
      updated_at: at,
      usable_at: at,
    })
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
      emailCode: await plantWithdrawCode(database.db, userId, at),
    },
  });
  expect(order.statusCode).toBe(200);
  const o = order.json() as { id: string; networkFeeMinor: string };
  return { userId, id: o.id, held: AMOUNT + BigInt(o.networkFeeMinor) };
}

const TYPES: Record<string, string> = {
  waitingForDeposit: 'sell_transaction_created',
  failed: 'sell_transaction_failed',
};
let n = 0;
async function send(orderId: string, status: string, extra: Record<string, unknown> = {}) {
  n += 1;
  const w = signedWebhook(TYPES[status] ?? 'sell_transaction_updated', {
    id: `mp-${orderId}`,
    status,
    externalTransactionId: orderId,
    depositWalletAddress: DEPOSIT_ADDRESS,
    baseCurrencyCode: 'usdt',
    baseCurrencyAmount: '20',
    updatedAt: `u${n}`,
    ...extra,
  });
  const res = await app.inject({
    method: 'POST',
    url: '/api/ramp/webhooks/moonpay',
    headers: { 'content-type': 'application/json', 'moonpay-signature-v2': w.header },
    payload: w.body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().outcome as string;
}

async function state(orderId: string) {
  const o = await database.db
    .selectFrom('ramp_orders as o')
    .leftJoin('withdrawals as w', 'w.id', 'o.withdrawal_id')
    .select(['o.state', 'o.state_reason', 'o.withdrawal_id', 'w.state as w_state'])
    .where('o.id', '=', orderId)
    .executeTakeFirstOrThrow();
  return o;
}
const balances = async (userId: string) => ({
  available: await balanceOf(database.db, 'user_available', userId, 'USDT'),
  locked: await balanceOf(database.db, 'user_locked', userId, 'USDT'),
});

describe('a sell the provider fails', () => {
  it('a failure that arrives first (with the deposit address) places no payout and releases the lock', async () => {
    const s = await placeSell();
    expect(await send(s.id, 'failed', { failureReason: 'checkout_cancelled' })).toBe('applied');
    expect(await state(s.id)).toMatchObject({ state: 'failed', withdrawal_id: null });
    expect(await balances(s.userId)).toEqual({ available: FUNDS, locked: 0n });
    const withdrawals = await database.db
      .selectFrom('withdrawals')
      .select('id')
      .where('user_id', '=', s.userId)
      .execute();
    expect(withdrawals).toHaveLength(0);
  });

  it('a shuffled "refunded" first places no payout either', async () => {
    const s = await placeSell();
    await send(s.id, 'refunded');
    expect((await state(s.id)).withdrawal_id).toBeNull();
    // pending -> refunded is no move: the order waits (and expires, releasing the lock); no coins were sent.
    expect(await balances(s.userId)).toEqual({ available: FUNDS - s.held, locked: s.held });
  });

  it('a failure after the payout was placed, before the signer took it: payout cancelled, lock back', async () => {
    const s = await placeSell();
    await send(s.id, 'waitingForDeposit');
    expect(await state(s.id)).toMatchObject({ state: 'waiting_deposit', w_state: 'review_approved' });
    expect(await send(s.id, 'failed', { failureReason: 'deposit_expired' })).toBe('applied');
    expect(await state(s.id)).toMatchObject({ state: 'failed', w_state: 'review_rejected' });
    expect(await balances(s.userId)).toEqual({ available: FUNDS, locked: 0n });
    expect((await reconcile(database.db)).ok).toBe(true);
  });

  it('a failure after the payout was signed: refund_pending (not failed), an alert, then refunded', async () => {
    const s = await placeSell();
    await send(s.id, 'waitingForDeposit');
    const { withdrawal_id } = await state(s.id);
    await transition(database.db, withdrawal_id as string, 'review_approved', 'transfer_in_progress', {}, at);
    await send(s.id, 'failed', { failureReason: 'deposit_expired' });
    expect(await state(s.id)).toMatchObject({ state: 'refund_pending', w_state: 'transfer_in_progress' });
    expect(await balances(s.userId)).toEqual({ available: FUNDS - s.held, locked: s.held });
    const alerts = await openSellAlerts(database.db);
    expect(alerts.map((a) => a.id)).toContain(s.id);
    await send(s.id, 'refunded');
    expect((await state(s.id)).state).toBe('refunded');
  });

  it('refund_pending whose transfer then fails on chain becomes failed (the signer released the lock)', async () => {
    const s = await placeSell();
    await send(s.id, 'waitingForDeposit');
    const { withdrawal_id } = await state(s.id);
    await transition(database.db, withdrawal_id as string, 'review_approved', 'transfer_in_progress', {}, at);
    await send(s.id, 'failed');
    await transition(database.db, withdrawal_id as string, 'transfer_in_progress', 'transfer_failed', {}, at);
    await failBrokenTransfers(database.db, at);
    expect((await state(s.id)).state).toBe('failed');
  });
});

describe('a sell status without the address, and a transaction that does not match', () => {
  it('"pending" without an address, then the address: the payout is still placed (no stranded lock)', async () => {
    const s = await placeSell();
    await send(s.id, 'pending', { depositWalletAddress: null });
    expect(await state(s.id)).toMatchObject({ state: 'processing', withdrawal_id: null });
    await send(s.id, 'completed');
    // Placed, but not completed before our transfer succeeded (H2).
    expect(await state(s.id)).toMatchObject({ state: 'processing', w_state: 'review_approved' });
  });

  it('"waitingForDeposit" without an address keeps the order pending; the address then places the payout', async () => {
    const s = await placeSell();
    // Before: a 500 (waiting_deposit requires the payout) the provider retries forever.
    expect(await send(s.id, 'waitingForDeposit', { depositWalletAddress: null })).toBe('applied');
    expect(await state(s.id)).toMatchObject({ state: 'pending', withdrawal_id: null });
    await send(s.id, 'pending');
    expect(await state(s.id)).toMatchObject({ state: 'processing', w_state: 'review_approved' });
    expect(await balances(s.userId)).toEqual({ available: FUNDS - s.held, locked: s.held });
  });

  it('"completed" without an address and no payout: the order waits in processing for the address', async () => {
    const s = await placeSell();
    await send(s.id, 'completed', { depositWalletAddress: null });
    expect(await state(s.id)).toMatchObject({ state: 'processing', withdrawal_id: null });
    await send(s.id, 'waitingForDeposit');
    expect(await state(s.id)).toMatchObject({ state: 'processing', w_state: 'review_approved' });
  });

  it.each([
    ['amount', { baseCurrencyAmount: '200' }],
    ['currency', { baseCurrencyCode: 'usdt_bsc' }],
    ['network', { baseCurrency: { code: 'usdt', metadata: { networkCode: 'binance_smart_chain' } } }],
    ['missing amount', { baseCurrencyAmount: null }],
  ])('refuses the payout on a %s mismatch, fails the order and alerts', async (_what, extra) => {
    const s = await placeSell();
    await send(s.id, 'waitingForDeposit', extra);
    const o = await state(s.id);
    expect(o).toMatchObject({ state: 'failed', withdrawal_id: null });
    expect(o.state_reason).toMatch(/^provider_terms_mismatch:/);
    expect(await balances(s.userId)).toEqual({ available: FUNDS, locked: 0n });
    expect((await openSellAlerts(database.db)).map((a) => a.id)).toContain(s.id);
  });
});

describe('a sell completes only once our transfer succeeded (H2)', () => {
  it('"completed" while the payout is unsigned holds the order in processing; the transfer settles it', async () => {
    const s = await placeSell();
    await send(s.id, 'waitingForDeposit');
    expect(await send(s.id, 'completed')).toBe('applied');
    const o = await state(s.id);
    expect(o).toMatchObject({ state: 'processing', w_state: 'review_approved' });
    const w = o.withdrawal_id as string;
    expect(await completeSettledSells(database.db, at)).toBe(0);
    await transition(database.db, w, 'review_approved', 'transfer_in_progress', {}, at);
    await transition(database.db, w, 'transfer_in_progress', 'transfer_successful', {}, at);
    expect(await completeSettledSells(database.db, at)).toBe(1);
    expect((await state(s.id)).state).toBe('completed');
  });

  it('"completed" with no address and no payout never completes the order', async () => {
    const s = await placeSell();
    await send(s.id, 'waitingForDeposit', { depositWalletAddress: null });
    await send(s.id, 'completed', { depositWalletAddress: null });
    expect(await state(s.id)).toMatchObject({ state: 'processing', withdrawal_id: null });
    expect(await completeSettledSells(database.db, at)).toBe(0);
  });

  it('alerts on a completed sell whose transfer failed', async () => {
    const s = await placeSell();
    await send(s.id, 'waitingForDeposit');
    const w = (await state(s.id)).withdrawal_id as string;
    await transition(database.db, w, 'review_approved', 'transfer_in_progress', {}, at);
    // A row from before the hold (or an operator's move): completed, then the transfer failed on chain.
    await database.db.transaction().execute(async (trx) => {
      const order = await lockOrder(trx, s.id);
      if (order) await transitionOrder(trx, order, 'completed', { now: at });
    });
    await transition(database.db, w, 'transfer_in_progress', 'transfer_failed', {}, at);
    const alerts = await openSellAlerts(database.db);
    expect(alerts.map((a) => a.id)).toContain(s.id);
  });

  it('a user frozen by a deep reorg: the payout is refused inside the transaction, the order fails, lock back', async () => {
    const s = await placeSell();
    const alert = await database.db
      .insertInto('reorg_alerts')
      .values({ network: 'ethereum', fork_block: '1', deposits: 1, created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await database.db
      .insertInto('withdrawal_freezes')
      .values({ user_id: s.userId, alert_id: alert.id, created_at: at })
      .execute();
    await send(s.id, 'waitingForDeposit');
    expect(await state(s.id)).toMatchObject({
      state: 'failed',
      withdrawal_id: null,
      state_reason: 'withdrawals_frozen',
    });
    expect(await balances(s.userId)).toEqual({ available: FUNDS, locked: 0n });
    await database.db
      .updateTable('reorg_alerts')
      .set({ resolved_at: at, resolution: 't' })
      .where('id', '=', alert.id)
      .execute();
  });

  it('a password reset after the sell was placed: the payout is refused (outflow_hold), the order fails, lock back', async () => {
    // Issue 38 review item 6: the 24 h hold was met when the sell was placed, not when it paid out.
    const s = await placeSell();
    await database.db
      .insertInto('audit_events')
      .values({ occurred_at: at, event: 'password_reset', user_id: s.userId, ip: null, details: '{}' })
      .execute();
    await send(s.id, 'waitingForDeposit');
    expect(await state(s.id)).toMatchObject({ state: 'failed', withdrawal_id: null, state_reason: 'outflow_hold' });
    expect(await balances(s.userId)).toEqual({ available: FUNDS, locked: 0n });
  });
});
