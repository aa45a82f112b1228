import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { findWithdrawal } from '../withdrawals/repository.ts';
import { lockOrder, transitionOrder } from './repository.ts';
import { cancelPayout } from './sell-events.ts';

/**
 * Sells failed by code older than the sell-failure fix (issue 36 review, H3), repaired in place:
 * - a `failed`/`refunded` sell whose payout is still unsigned (`in_review`/`review_approved`) would be
 *   signed later to a closed provider transaction: the payout is cancelled and its lock released,
 *   exactly as `failSell` does now (key `withdrawal:<id>:unlock`, so never twice);
 * - a `failed` sell whose transfer was already signed had its coins leave: it moves to
 *   `refund_pending`, which the sell alerts report, to wait for the provider's refund.
 * A repeated provider failure is stale on such orders, so this step (not the events) is what fixes
 * them. Run by the ramp sweep (at start and every pass; a cheap indexed look-up when nothing is
 * left) and idempotent under the order's and the withdrawal's row locks, so several instances are safe.
 */
export async function repairFailedSells(
  db: Kysely<Database>,
  now: Date,
  batch = 100,
): Promise<{ cancelled: number; refundPending: number }> {
  const rows = await db
    .selectFrom('ramp_orders as o')
    .innerJoin('withdrawals as w', 'w.id', 'o.withdrawal_id')
    .select('o.id')
    .where('o.side', '=', 'sell')
    .where((eb) =>
      eb.or([
        eb.and([eb('o.state', 'in', ['failed', 'refunded']), eb('w.state', 'in', ['in_review', 'review_approved'])]),
        eb.and([eb('o.state', '=', 'failed'), eb('w.state', 'in', ['transfer_in_progress', 'transfer_successful'])]),
      ]),
    )
    .limit(batch)
    .execute();
  const done = { cancelled: 0, refundPending: 0 };
  for (const { id } of rows) {
    const outcome = await db.transaction().execute(async (trx) => {
      const order = await lockOrder(trx, id);
      if (!order?.withdrawal_id || (order.state !== 'failed' && order.state !== 'refunded')) return null;
      const w = await findWithdrawal(trx, order.withdrawal_id, { forUpdate: true });
      if (!w) return null;
      if (w.state === 'in_review' || w.state === 'review_approved') {
        await cancelPayout(trx, w, order.id, now);
        return 'cancelled' as const;
      }
      if (order.state === 'failed' && (w.state === 'transfer_in_progress' || w.state === 'transfer_successful')) {
        await transitionOrder(trx, order, 'refund_pending', { reason: 'failed_after_transfer_signed', now });
        return 'refundPending' as const;
      }
      return null;
    });
    if (outcome) done[outcome] += 1;
  }
  return done;
}
