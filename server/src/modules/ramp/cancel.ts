import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { findWithdrawal } from '../withdrawals/repository.ts';
import { lockOrder, type OrderRow, transitionOrder } from './repository.ts';
import { cancelPayout, releaseSell } from './sell-events.ts';
import { canTransition, type RampState } from './states.ts';

type Trx = Transaction<Database>;
/** Why a pending sell was cancelled (translated in the convert remote: utils/failure-reason.ts). */
type CancelReason = 'cancelled_in_app' | 'sessions_ended';

/** Most pending sells one user can have at once is far below this; a bound on one cancellation pass. */
const PENDING_SELLS_MAX = 200;

/**
 * A pending sell (the checkout not done, no payout placed) ends as `expired` and its lock goes back to
 * the available balance. Its checkout link, wherever it was copied to, then leads nowhere: the
 * provider's later events for it are stale (expired ranks above every move that would pay out).
 * Returns the order as it now is, or null when it was not a pending sell of this user.
 */
async function cancelLocked(trx: Trx, order: OrderRow, ending: { reason: CancelReason; now: Date }) {
  if (order.side !== 'sell' || order.state !== 'pending' || order.withdrawal_id !== null) return null;
  await releaseSell(trx, order, ending.now);
  return transitionOrder(trx, order, 'expired', ending);
}

/** The owner cancels one pending sell (e.g. its checkout link was lost on reload). Null: not cancellable. */
export async function cancelPendingSell(trx: Trx, userId: string, id: string, now: Date): Promise<OrderRow | null> {
  const order = await lockOrder(trx, id);
  if (order?.user_id !== userId) return null;
  return cancelLocked(trx, order, { reason: 'cancelled_in_app', now });
}

/**
 * Every pending sell of the user, when the owner ends other sessions (sign out others, a password
 * change or reset): a thief who held a session (and so maybe a checkout link) must not complete the
 * owner's sell after the owner said "not me". In the caller's transaction, with the sessions' end.
 */
export async function cancelPendingSells(trx: Trx, userId: string, now: Date): Promise<number> {
  const pending = await trx
    .selectFrom('ramp_orders')
    .select('id')
    .where('user_id', '=', userId)
    .where('side', '=', 'sell')
    .where('state', '=', 'pending')
    .orderBy('created_at')
    .limit(PENDING_SELLS_MAX)
    .execute();
  let cancelled = 0;
  for (const { id } of pending) {
    const order = await lockOrder(trx, id);
    if (order && (await cancelLocked(trx, order, { reason: 'sessions_ended', now }))) cancelled += 1;
  }
  return cancelled;
}

/**
 * The owner froze the account (review of issue 31, F2): every pending sell ends as a session ending
 * ends it, and a sell whose payout the signer has not taken yet (in_review / review_approved) has that
 * payout rejected, its lock released and the order failed with `account_frozen`; otherwise the signer
 * would send the coins to the provider the moment the account thaws, and the provider would pay a
 * thief's method. A payout already signed is on the chain and cannot be called back. In the freeze's
 * transaction, after the outflow lock.
 */
export async function endSellsOnFreeze(trx: Trx, userId: string, now: Date): Promise<number> {
  let ended = await cancelPendingSells(trx, userId, now);
  const paying = await trx
    .selectFrom('ramp_orders')
    .innerJoin('withdrawals', 'withdrawals.id', 'ramp_orders.withdrawal_id')
    .select('ramp_orders.id')
    .where('ramp_orders.user_id', '=', userId)
    .where('ramp_orders.side', '=', 'sell')
    .where('withdrawals.state', 'in', ['in_review', 'review_approved'])
    .orderBy('ramp_orders.created_at')
    .limit(PENDING_SELLS_MAX)
    .execute();
  for (const { id } of paying) {
    const order = await lockOrder(trx, id);
    if (!order?.withdrawal_id || !canTransition(order.state as RampState, 'failed')) continue;
    // The signer locks the withdrawal's row before it signs: this waits for it, then reads the truth.
    const w = await findWithdrawal(trx, order.withdrawal_id, { forUpdate: true });
    if (w?.state !== 'in_review' && w?.state !== 'review_approved') continue;
    await cancelPayout(trx, w, order.id, now);
    await transitionOrder(trx, order, 'failed', { reason: 'account_frozen', now });
    ended += 1;
  }
  return ended;
}
