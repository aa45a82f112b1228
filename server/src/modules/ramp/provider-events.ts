import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ProviderTransaction } from './moonpay/client.ts';
import { lockOrder, type OrderPatch, transitionOrder } from './repository.ts';
import { applySellEvent, releaseSell } from './sell-events.ts';
import { canTransition, isRampState, isStale, type RampState } from './states.ts';

type Trx = Transaction<Database>;

/** MoonPay's statuses (buy and sell) as our states; unknown statuses change nothing. */
const statusMap: Record<'buy' | 'sell', Record<string, RampState>> = {
  buy: {
    waitingPayment: 'waiting_payment',
    waitingAuthorization: 'waiting_payment',
    pending: 'processing',
    completed: 'completed',
    failed: 'failed',
  },
  sell: {
    waitingForDeposit: 'waiting_deposit',
    pending: 'processing',
    completed: 'completed',
    failed: 'failed',
    refunded: 'refunded',
  },
};

export type ApplyResult = 'applied' | 'stale' | 'unknown_order' | 'ignored';

/**
 * One provider event (webhook or look-up) applied to its order under the order's row lock. Each
 * event has at most one effect whatever the order of arrival: a status at or behind the order's
 * is stale; a sell's payout is placed once (keyed by the order) and only on a status that says the
 * provider waits for the coins; a failed sell gets its lock released or its payout cancelled once
 * (sell-events.ts).
 */
export async function applyProviderTransaction(
  trx: Trx,
  flow: 'buy' | 'sell',
  tx: ProviderTransaction,
  now: Date,
): Promise<ApplyResult> {
  const orderId = tx.externalTransactionId;
  if (!orderId || !/^[0-9a-f-]{36}$/i.test(orderId)) return 'unknown_order';
  const order = await lockOrder(trx, orderId);
  if (!order || order.side !== flow) return 'unknown_order';
  if (order.provider_tx_id && order.provider_tx_id !== tx.id) return 'ignored';
  const target = statusMap[flow][tx.status];
  if (!target) return 'ignored';
  if (flow === 'sell') return applySellEvent(trx, order, tx, target, now);
  const from = order.state as RampState;
  if (!isRampState(from) || isStale(from, target) || !canTransition(from, target)) return 'stale';
  const patch: OrderPatch = { provider_tx_id: tx.id, provider_status: tx.status };
  if (tx.cryptoTransactionId && /^0x[0-9a-fA-F]{64}$/.test(tx.cryptoTransactionId))
    patch.tx_hash = tx.cryptoTransactionId;
  await transitionOrder(trx, order, target, { reason: tx.failureReason, patch, now });
  return 'applied';
}

export function attachSellDeposit(db: Kysely<Database>, now: Date, tx: ProviderTransaction) {
  return db.transaction().execute((trx) => applyProviderTransaction(trx, 'sell', tx, now));
}

/** Orders never taken to the checkout: expired; a sell's lock released in the same transaction. */
export async function expireAbandoned(db: Kysely<Database>, now: Date, batch = 100): Promise<number> {
  const due = await db
    .selectFrom('ramp_orders')
    .select('id')
    .where('state', '=', 'pending')
    .where('checkout_expires_at', '<=', now)
    .limit(batch)
    .execute();
  let expired = 0;
  for (const { id } of due) {
    expired += await db.transaction().execute(async (trx) => {
      const order = await lockOrder(trx, id);
      if (order?.state !== 'pending') return 0;
      if (order.side === 'sell') await releaseSell(trx, order, now);
      await transitionOrder(trx, order, 'expired', { reason: 'checkout_not_completed', now });
      return 1;
    });
  }
  return expired;
}

/**
 * A sell whose transfer to the provider failed on chain (the signer already unlocked it): failed,
 * also from refund_pending (the provider failed it, but our coins never arrived after all).
 */
export async function failBrokenTransfers(db: Kysely<Database>, now: Date, batch = 100): Promise<number> {
  const broken = await db
    .selectFrom('ramp_orders as o')
    .innerJoin('withdrawals as w', 'w.id', 'o.withdrawal_id')
    .select('o.id')
    .where('o.state', 'in', ['waiting_deposit', 'processing', 'refund_pending'])
    .where('w.state', 'in', ['transfer_failed', 'review_rejected'])
    .limit(batch)
    .execute();
  for (const { id } of broken) {
    await db.transaction().execute(async (trx) => {
      const order = await lockOrder(trx, id);
      if (order && canTransition(order.state as RampState, 'failed')) {
        await transitionOrder(trx, order, 'failed', { reason: 'transfer_failed', now });
      }
    });
  }
  return broken.length;
}

/**
 * Sells the provider completed while our transfer was still on its way (held in processing with the
 * provider's status `completed`): completed once the transfer succeeded. A transfer that fails
 * instead is `failBrokenTransfers`' (failed, the signer released the lock).
 */
export async function completeSettledSells(db: Kysely<Database>, now: Date, batch = 100): Promise<number> {
  const settled = await db
    .selectFrom('ramp_orders as o')
    .innerJoin('withdrawals as w', 'w.id', 'o.withdrawal_id')
    .select('o.id')
    .where('o.side', '=', 'sell')
    .where('o.state', '=', 'processing')
    .where('o.provider_status', '=', 'completed')
    .where('w.state', '=', 'transfer_successful')
    .limit(batch)
    .execute();
  let completed = 0;
  for (const { id } of settled) {
    completed += await db.transaction().execute(async (trx) => {
      const order = await lockOrder(trx, id);
      if (order?.state !== 'processing' || order.provider_status !== 'completed') return 0;
      await transitionOrder(trx, order, 'completed', { now });
      return 1;
    });
  }
  return completed;
}
