import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { lockOrder, type OrderRow, transitionOrder } from './repository.ts';
import { releaseSell } from './sell-events.ts';

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
