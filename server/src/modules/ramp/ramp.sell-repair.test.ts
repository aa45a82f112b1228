import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { buildTestApp, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { createLedgerService } from '../ledger/service.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { transition } from '../withdrawals/repository.ts';
import type { MoonPayClient } from './moonpay/client.ts';
import { runRampCommand } from './ops-commands.ts';
import { lockOrder, transitionOrder } from './repository.ts';
import type { SandboxRamp } from './sandbox/sandbox-server.ts';
import { claimDueSellAlerts, openSellAlerts, SELL_REALERT_MS } from './sell-alerts.ts';
import { repairFailedSells } from './sell-repair.ts';
import { createUserIn, plantWithdrawCode, signedWebhook, startTestProvider } from './test-helpers.ts';

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
    .values({
      user_id: userId,
      kind: 'upi',
      shown: '{"upi":"a***@upi"}',
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
    expect((await openSellAlerts(database.db)).map((a) => a.id)).toContain(s.id);
    expect(await balanceOf(database.db, 'user_locked', s.userId, 'USDT')).toBeGreaterThan(0n);
  });
});

/** A refund_pending sell: its transfer was signed, then the provider failed it. */
async function refundPending() {
  const s = await sellWithPayout();
  await transition(database.db, s.withdrawalId, 'review_approved', 'transfer_in_progress', {}, at);
  await oldFailure(s.id, 'failed');
  await repairFailedSells(database.db, at);
  return s;
}

describe('sell alerts live in the database (M7)', () => {
  it('each open alert is claimed once across instances and restarts, and again after the re-alert interval', async () => {
    const s = await refundPending();
    const mine = (list: { id: string }[]) => list.filter((a) => a.id === s.id);
    expect(mine(await claimDueSellAlerts(database.db, at))).toHaveLength(1);
    // Another instance, or this one restarted, in the same hour: nothing to log again.
    expect(mine(await claimDueSellAlerts(database.db, new Date(at.getTime() + 60_000)))).toHaveLength(0);
    const later = new Date(at.getTime() + SELL_REALERT_MS);
    expect(mine(await claimDueSellAlerts(database.db, later))).toHaveLength(1);
    const row = await database.db
      .selectFrom('ramp_sell_alerts')
      .selectAll()
      .where('order_id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'refund_pending', alerts: 2 });
  });
});

describe('ops: ramp resolve-refund', () => {
  async function creditRefund(userId: string, hash: string) {
    await createLedgerService({ db: database.db, now: () => at }).deposit({
      idempotencyKey: `refund:${hash}`,
      userId,
      asset: 'USDT',
      amountMinor: AMOUNT,
    });
    const t = await database.db
      .selectFrom('ledger_transfers')
      .select('id')
      .where('idempotency_key', '=', `refund:${hash}`)
      .executeTakeFirstOrThrow();
    await database.db
      .insertInto('deposits')
      .values({
        user_id: userId,
        network: 'ethereum',
        coin: 'USDT',
        tx_hash: hash,
        output_index: 0,
        from_address: null,
        to_address: '0x0000000000000000000000000000000000000001',
        chain_amount: AMOUNT.toString(),
        amount_minor: AMOUNT.toString(),
        block_number: 1,
        block_hash: `0x${'b'.repeat(64)}`,
        required_confirmations: 6,
        state: 'successful',
        reason: null,
        credited_transfer_id: t.id,
        completed_at: at,
      })
      .execute();
  }
  const run = async (args: string[]) => {
    const lines: string[] = [];
    const code = await runRampCommand(
      database.db,
      args,
      (l) => lines.push(l),
      () => at,
    );
    return { code, lines };
  };

  it('closes a refund_pending sell with the credited refund deposit, once; refuses anything else', async () => {
    const s = await refundPending();
    await claimDueSellAlerts(database.db, at);
    const hash = `0x${'a'.repeat(64)}`;
    // No such deposit yet: refused, nothing changes.
    expect((await run(['resolve-refund', s.id, '--refund-tx', hash])).code).toBe(1);
    expect((await stateOf(s.id)).state).toBe('refund_pending');
    await creditRefund(s.userId, hash);
    const ok = await run(['resolve-refund', s.id, '--refund-tx', hash]);
    expect(ok.code).toBe(0);
    expect((await stateOf(s.id)).state).toBe('refunded');
    const alert = await database.db
      .selectFrom('ramp_sell_alerts')
      .select('resolved_at')
      .where('order_id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(alert.resolved_at).not.toBeNull();
    // The same refund cannot close a second order.
    const other = await refundPending();
    expect((await run(['resolve-refund', other.id, '--refund-tx', hash])).code).toBe(1);
    // Another user's deposit is no refund of this sell.
    const hash2 = `0x${'c'.repeat(64)}`;
    await creditRefund(s.userId, hash2);
    expect((await run(['resolve-refund', other.id, '--refund-tx', hash2])).code).toBe(1);
    expect((await run(['resolve-refund', other.id])).code).toBe(2);
    expect((await reconcile(database.db)).ok).toBe(true);
  });
});
