import type { EngineContext, TickReport } from './engine-types.ts';
import { lateWatchSince } from './pricing.ts';
import type { OrderPatch, OrderRow } from './repository.ts';
import { findOrder, lockOrder, updateFields } from './repository.ts';
import { transitionOrder } from './transition.ts';

/** The engine's deposit steps: orders' deposits seen on chain, overdue orders expired, confirmations counted. */

/** Waiting orders, and expired ones within the late-deposit watch: look for their deposit on chain. */
export async function observeDeposits(ctx: EngineContext, report: TickReport) {
  const { db, now, batch, lateWatchMs, step, observeOrderDeposit } = ctx;
  const watchedSince = lateWatchSince(now(), lateWatchMs);
  const orders = await db
    .selectFrom('exchange_orders')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('state', '=', 'waiting'),
        eb.and([eb('state', '=', 'expired'), eb('deposit_tx_hash', 'is', null), eb('deadline_at', '>', watchedSince)]),
      ]),
    )
    .where('deposit_address', 'is not', null)
    .orderBy('updated_at')
    .limit(batch)
    .execute();
  for (const order of orders) {
    const seen = await observeOrderDeposit(order);
    if (!seen) continue; // lookup failed (retried next tick) or nothing deposited yet
    const deposit = seen;
    const at = now();
    const patch: OrderPatch = {
      deposit_tx_hash: deposit.txHash,
      deposit_amount_minor: deposit.amountMinor.toString(),
      deposit_confirmations: deposit.confirmations,
      deposit_seen_at: at,
    };
    // Sent after the deadline (by block time): a late deposit even if seen before the expiry step.
    const late = order.deadline_at !== null && deposit.blockTime !== undefined && deposit.blockTime > order.deadline_at;
    const ok = await step(order, async (trx) => {
      if (order.state === 'waiting' && late) {
        await transitionOrder(trx, order.id, 'expired', {
          now: at,
          expectFrom: 'waiting',
          reason: 'deadline_passed',
          patch,
        });
      } else if (order.state === 'waiting') {
        await transitionOrder(trx, order.id, 'confirming', {
          now: at,
          expectFrom: 'waiting',
          reason: 'deposit_seen',
          patch,
        });
      } else {
        // Late deposit on an expired order: recorded now, refunded once confirmed.
        await updateFields(trx, order.id, patch, at);
      }
    });
    if (ok) report.seen++;
  }
}

/** Orders (fixed and float) past their deadline without a deposit. */
export async function expireOverdue(ctx: EngineContext, report: TickReport) {
  const { db, now, batch, step } = ctx;
  const at = now();
  const orders = await db
    .selectFrom('exchange_orders')
    .selectAll()
    .where('state', '=', 'waiting')
    .where('deadline_at', '<=', at)
    .where('deposit_tx_hash', 'is', null)
    .limit(batch)
    .execute();
  for (const order of orders) {
    const ok = await step(order, async (trx) => {
      await transitionOrder(trx, order.id, 'expired', { now: at, expectFrom: 'waiting', reason: 'deadline_passed' });
    });
    if (ok) report.expired++;
  }
}

/** Confirming orders (and expired ones with a late deposit): count confirmations; book the deposit. */
export async function confirmDeposits(ctx: EngineContext, report: TickReport) {
  const { db, now, batch, step, requiredConfirmations, postIn, refund, observeOrderDeposit } = ctx;
  const orders = await db
    .selectFrom('exchange_orders')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('state', '=', 'confirming'),
        eb.and([
          eb('state', '=', 'expired'),
          eb('deposit_tx_hash', 'is not', null),
          eb('deposit_confirmed_at', 'is', null),
        ]),
      ]),
    )
    .orderBy('updated_at')
    .limit(batch)
    .execute();
  for (const order of orders) {
    const seen = await observeOrderDeposit(order);
    // Lookup failed (retried next tick), or gone after a reorg: keep waiting for it to reappear (an operator can fail the order).
    if (!seen || seen.txHash !== order.deposit_tx_hash) continue;
    const deposit = seen;
    const at = now();
    const confirmed = deposit.confirmations >= requiredConfirmations(order);
    const ok = await step(order, async (trx) => {
      const current = await lockOrder(trx, order.id);
      if (!current || current.state !== order.state) return;
      const patch: OrderPatch = {
        deposit_confirmations: deposit.confirmations,
        deposit_amount_minor: deposit.amountMinor.toString(),
      };
      if (!confirmed) {
        await updateFields(trx, order.id, patch, at);
        return;
      }
      await postIn(trx, order, deposit.amountMinor, at);
      if (order.state === 'confirming') {
        await transitionOrder(trx, order.id, 'exchanging', {
          now: at,
          expectFrom: 'confirming',
          reason: 'deposit_confirmed',
          patch: { ...patch, deposit_confirmed_at: at },
        });
      } else {
        await updateFields(trx, order.id, { ...patch, deposit_confirmed_at: at }, at);
        const fresh = (await findOrder(trx, order.id)) as OrderRow;
        await refund(trx, fresh, 'expired', 'late_deposit', at);
        report.refunded++;
      }
    });
    if (ok && confirmed && order.state === 'confirming') report.confirmed++;
  }
}
