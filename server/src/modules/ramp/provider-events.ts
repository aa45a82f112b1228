import { canonicalAddress, isValidAddress } from '@cw/shared-state/address';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CoinCode, NetworkCode } from '../catalogue/catalogue.ts';
import { unlockFunds } from '../ledger/operations.ts';
import { placeApprovedPayout } from '../withdrawals/payouts.ts';
import type { ProviderTransaction } from './moonpay/client.ts';
import { lockOrder, type OrderPatch, type OrderRow, patchOrder, transitionOrder } from './repository.ts';
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
 * is stale; a sell's payout is placed once (keyed by the order); a failed sell whose coins never
 * left gets its lock released once (keyed by the order).
 */
export async function applyProviderTransaction(
  trx: Trx,
  flow: 'buy' | 'sell',
  tx: ProviderTransaction,
  now: Date,
): Promise<ApplyResult> {
  const orderId = tx.externalTransactionId;
  if (!orderId || !/^[0-9a-f-]{36}$/i.test(orderId)) return 'unknown_order';
  let order = await lockOrder(trx, orderId);
  if (!order || order.side !== flow) return 'unknown_order';
  if (order.provider_tx_id && order.provider_tx_id !== tx.id) return 'ignored';
  const target = statusMap[flow][tx.status];
  if (!target) return 'ignored';
  if (flow === 'sell' && tx.depositWalletAddress && !order.withdrawal_id && order.state === 'pending') {
    order = await placeSellPayout(trx, order, tx, now);
    if (target === 'waiting_deposit') return 'applied';
  }
  const from = order.state as RampState;
  if (!isRampState(from) || isStale(from, target) || !canTransition(from, target)) return 'stale';
  const patch: OrderPatch = { provider_tx_id: tx.id, provider_status: tx.status };
  if (tx.cryptoTransactionId && /^0x[0-9a-fA-F]{64}$/.test(tx.cryptoTransactionId))
    patch.tx_hash = tx.cryptoTransactionId;
  if (target === 'failed' && order.side === 'sell' && !order.withdrawal_id) await releaseSell(trx, order, now);
  await transitionOrder(trx, order, target, { reason: tx.failureReason, patch, now });
  return 'applied';
}

/** Our coins go to the provider's deposit address through the withdrawal pipeline and the signer. */
async function placeSellPayout(trx: Trx, order: OrderRow, tx: ProviderTransaction, now: Date): Promise<OrderRow> {
  const address = tx.depositWalletAddress ?? '';
  if (!isValidAddress(order.network, address)) {
    await releaseSell(trx, order, now);
    return transitionOrder(trx, order, 'failed', { reason: 'provider_address_invalid', now });
  }
  const fee = BigInt(order.network_fee_minor);
  const withdrawalId = await placeApprovedPayout(
    trx,
    {
      userId: order.user_id,
      key: `ramp:${order.id}:payout`,
      coin: order.coin as CoinCode,
      network: order.network as NetworkCode,
      address: canonicalAddress(order.network as never, address),
      amountMinor: BigInt(order.crypto_amount_minor) + fee,
      feeMinor: fee,
    },
    now,
  );
  const patched = await patchOrder(
    trx,
    order.id,
    { deposit_address: address, withdrawal_id: withdrawalId, provider_tx_id: tx.id, provider_status: tx.status },
    now,
  );
  return transitionOrder(trx, patched, 'waiting_deposit', { now });
}

/** The sell's lock back to the available balance (the coins never left). */
async function releaseSell(trx: Trx, order: OrderRow, now: Date) {
  await unlockFunds(
    trx,
    {
      idempotencyKey: `ramp:${order.id}:unlock`,
      userId: order.user_id,
      asset: order.coin as CoinCode,
      amountMinor: BigInt(order.crypto_amount_minor) + BigInt(order.network_fee_minor),
    },
    now,
  );
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

/** A sell whose transfer to the provider failed on chain (the signer already unlocked it): failed. */
export async function failBrokenTransfers(db: Kysely<Database>, now: Date, batch = 100): Promise<number> {
  const broken = await db
    .selectFrom('ramp_orders as o')
    .innerJoin('withdrawals as w', 'w.id', 'o.withdrawal_id')
    .select('o.id')
    .where('o.state', 'in', ['waiting_deposit', 'processing'])
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
