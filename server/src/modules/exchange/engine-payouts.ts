import type { EngineContext, PayoutStatus, TickReport } from './engine-types.ts';
import { updateFields } from './repository.ts';
import { transitionOrder } from './transition.ts';

/** The engine's last step: a payout or refund the signer has sent (or failed) closes its order. */

/** Sending orders (and refunds): record the payout transaction when the signer reports it. */
export async function trackPayouts(ctx: EngineContext, report: TickReport) {
  const { now, payouts, onError, step, fairBatch } = ctx;
  // A refund whose payout failed is recorded (payout_failed_at) and read no more.
  const orders = await fairBatch('payouts', (eb) =>
    eb.and([
      eb('payout_request_id', 'is not', null),
      eb.or([
        eb('state', '=', 'sending'),
        eb.and([eb('state', '=', 'refunded'), eb('payout_tx_hash', 'is', null), eb('payout_failed_at', 'is', null)]),
      ]),
    ]),
  );
  for (const order of orders) {
    let status: PayoutStatus;
    try {
      status = await payouts.status(order.payout_request_id as string);
    } catch (err) {
      onError(err, order.id);
      continue;
    }
    if (status.state === 'pending') continue;
    const at = now();
    const done = status;
    const ok = await step(order, async (trx) => {
      if (order.state === 'refunded') {
        if (done.state === 'sent')
          await updateFields(trx, order.id, { payout_tx_hash: done.txHash, payout_sent_at: at }, at);
        // The signer unlocked the refund back to the user's wallet balance: the order says so.
        else
          await updateFields(
            trx,
            order.id,
            { payout_failed_at: at, payout_failed_reason: `refund_failed: ${done.reason}; to_wallet`.slice(0, 500) },
            at,
          );
        return;
      }
      if (done.state === 'sent') {
        await transitionOrder(trx, order.id, 'completed', {
          now: at,
          expectFrom: 'sending',
          reason: 'payout_mined',
          patch: { payout_tx_hash: done.txHash, payout_sent_at: at },
        });
      } else {
        await transitionOrder(trx, order.id, 'failed', {
          now: at,
          expectFrom: 'sending',
          reason: `payout_failed: ${done.reason}`.slice(0, 500),
        });
      }
    });
    if (ok && order.state === 'sending') {
      if (done.state === 'sent') report.completed++;
      else report.failed++;
    }
  }
}
