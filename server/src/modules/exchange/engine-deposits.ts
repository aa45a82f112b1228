import type { EngineContext, ObservedOrderDeposit, TickReport } from './engine-types.ts';
import { DepositMismatchError } from './errors.ts';
import { EXPIRY_WALL_CLOCK_MARGIN_MS, lateWatchSince } from './pricing.ts';
import type { OrderPatch, OrderRow } from './repository.ts';
import { findOrder, lockOrder, updateFields } from './repository.ts';
import { transitionOrder } from './transition.ts';

/**
 * The engine's deposit steps: orders' deposits seen on chain (and overdue orders expired by the chain's
 * clock, in the same look), confirmations counted.
 */

/**
 * The chain head's time per network and coin for this tick (see OrderDepositObserver.headTime), read
 * once before the first order of the pair is observed. Null: unknown, so nothing of the pair expires.
 */
function headClock(ctx: EngineContext) {
  const { deposits, now, onError } = ctx;
  const heads = new Map<string, Promise<Date | null>>();
  return (order: OrderRow): Promise<Date | null> => {
    const key = `${order.send_network}|${order.send_coin}`;
    let head = heads.get(key);
    if (!head) {
      const read = deposits.headTime
        ? deposits.headTime({ network: order.send_network, coin: order.send_coin })
        : Promise.resolve(now());
      head = read.catch((err: unknown) => {
        onError(err, order.id);
        return null;
      });
      heads.set(key, head);
    }
    return head;
  };
}

/**
 * Whether the deadline is behind both the chain's head (what was read) and the wall clock; or, when the
 * head is unknown or stuck (a network with no runtime never has one), behind the wall clock by a margin:
 * a waiting order must not count against its user's unpaid-order cap for ever.
 */
const overdue = (order: OrderRow, head: Date | null, at: Date) => {
  const deadline = order.deadline_at;
  if (deadline === null || at <= deadline) return false;
  return (head !== null && head > deadline) || at.getTime() - deadline.getTime() > EXPIRY_WALL_CLOCK_MARGIN_MS;
};

/** Mined at or before the deadline (by block time): the order's deposit, even if seen after the expiry. */
const inTime = (order: OrderRow, deposit: ObservedOrderDeposit) =>
  order.deadline_at !== null && deposit.blockTime !== undefined && deposit.blockTime <= order.deadline_at;

/**
 * Waiting orders, and expired ones within the late-deposit watch: look for their deposit on chain. A
 * waiting order with nothing deposited expires here, only when the chain head read before this look is
 * past its deadline (never by the wall clock alone: an RPC behind, a failed look-up, a scanner behind).
 */
export async function observeDeposits(ctx: EngineContext, report: TickReport) {
  const { now, lateWatchMs, step, observeOrderDeposit, fairBatch } = ctx;
  const watchedSince = lateWatchSince(now(), lateWatchMs);
  const headOf = headClock(ctx);
  const orders = await fairBatch('observe', (eb) =>
    eb.and([
      eb('deposit_address', 'is not', null),
      eb.or([
        eb('state', '=', 'waiting'),
        eb.and([eb('state', '=', 'expired'), eb('deposit_tx_hash', 'is', null), eb('deadline_at', '>', watchedSince)]),
      ]),
    ]),
  );
  for (const order of orders) {
    const head = await headOf(order);
    const seen = await observeOrderDeposit(order);
    if (seen === undefined) continue; // lookup failed: retried next tick, and nothing expires on it
    if (seen === null) {
      if (order.state !== 'waiting' || !overdue(order, head, now())) continue;
      const at = now();
      const ok = await step(order, async (trx) => {
        await transitionOrder(trx, order.id, 'expired', { now: at, expectFrom: 'waiting', reason: 'deadline_passed' });
      });
      if (ok) report.expired++;
      continue;
    }
    if (await recordDeposit(ctx, order, seen)) report.seen++;
  }
}

/** A deposit seen for a waiting or expired order: confirming if in time, else a late deposit to refund. */
function recordDeposit(ctx: EngineContext, order: OrderRow, deposit: ObservedOrderDeposit): Promise<boolean> {
  const at = ctx.now();
  const patch: OrderPatch = {
    deposit_tx_hash: deposit.txHash,
    deposit_log_index: deposit.logIndex ?? null,
    deposit_amount_minor: deposit.amountMinor.toString(),
    deposit_confirmations: deposit.confirmations,
    deposit_seen_at: at,
  };
  // Sent after the deadline (by block time): a late deposit even if seen before the expiry step.
  const late = order.deadline_at !== null && deposit.blockTime !== undefined && deposit.blockTime > order.deadline_at;
  return ctx.step(order, async (trx) => {
    if (order.state === 'waiting') {
      await transitionOrder(trx, order.id, late ? 'expired' : 'confirming', {
        now: at,
        expectFrom: 'waiting',
        reason: late ? 'deadline_passed' : 'deposit_seen',
        patch,
      });
    } else if (inTime(order, deposit)) {
      // Expired (the watcher was behind, or another instance expired it) but mined in time: honoured.
      await transitionOrder(trx, order.id, 'confirming', {
        now: at,
        expectFrom: 'expired',
        reason: 'deposit_in_time',
        patch,
      });
    } else {
      // Late deposit on an expired order: recorded now, refunded once confirmed.
      await updateFields(trx, order.id, patch, at);
    }
  });
}

/** Confirming orders (and expired ones with a late deposit): count confirmations; book the deposit. */
export async function confirmDeposits(ctx: EngineContext, report: TickReport) {
  const { now, step, requiredConfirmations, postIn, refund, observeOrderDeposit, fairBatch } = ctx;
  const orders = await fairBatch('confirm', (eb) =>
    eb.or([
      eb('state', '=', 'confirming'),
      eb.and([
        eb('state', '=', 'expired'),
        eb('deposit_tx_hash', 'is not', null),
        eb('deposit_confirmed_at', 'is', null),
      ]),
    ]),
  );
  for (const order of orders) {
    const seen = await observeOrderDeposit(order);
    // Lookup failed (retried next tick), or gone after a reorg: keep waiting for it to reappear (an operator can fail the order).
    if (!seen) continue;
    if (seen.txHash.toLowerCase() !== order.deposit_tx_hash?.toLowerCase()) {
      // Another transfer than the recorded one (a dust one recorded before, a reorg's replacement): the
      // order cannot move on by itself. Loud every time it is looked at (the module logs an ALERT).
      ctx.onError(new DepositMismatchError(order.id, order.deposit_tx_hash ?? '', seen.txHash), order.id);
      continue;
    }
    const deposit = seen;
    const at = now();
    const confirmed = deposit.confirmations >= requiredConfirmations(order);
    const honoured = order.state === 'expired' && inTime(order, deposit);
    const ok = await step(order, async (trx) => {
      const current = await lockOrder(trx, order.id);
      if (!current || current.state !== order.state) return;
      const patch: OrderPatch = {
        deposit_confirmations: deposit.confirmations,
        deposit_amount_minor: deposit.amountMinor.toString(),
        // The same transaction mined again after a reorg can sit at another log index (review of issue 37, HIGH 1).
        ...(deposit.logIndex === undefined ? {} : { deposit_log_index: deposit.logIndex }),
      };
      if (honoured) {
        // Recorded as late, but its block (after a reorg, say) is in time: back to the order's flow.
        await transitionOrder(trx, order.id, 'confirming', {
          now: at,
          expectFrom: 'expired',
          reason: 'deposit_in_time',
          patch,
        });
        return;
      }
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
    if (ok && confirmed && !honoured && order.state === 'confirming') report.confirmed++;
  }
}
