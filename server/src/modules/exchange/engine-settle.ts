import { findCoinNetwork } from '../catalogue/catalogue.ts';
import { InsufficientBalanceError } from '../ledger/errors.ts';
import { consolidateLanes, locked, post, system } from './engine-ledger.ts';
import type { EngineContext, TickReport } from './engine-types.ts';
import { OPERATOR_REFUND } from './engine-types.ts';
import { IllegalTransitionError } from './errors.ts';
import { limitsFor, midRateScaled, movedBeyondTolerance, receiveFor } from './pricing.ts';
import { lockOrder } from './repository.ts';
import { transitionOrder } from './transition.ts';

/** The engine's settle step: an exchanging order paid out at its rate (fixed or now), refunded, or held for liquidity. */

/** Exchanging orders: settle the amount and pay out, or refund. */
export async function settle(ctx: EngineContext, report: TickReport) {
  const { db, now, payouts, onError, inStates, step, pairOf, refund, requirePrices } = ctx;
  for (const order of await inStates('settle', ['exchanging'])) {
    const at = now();
    const { send, receive } = pairOf(order);
    const rateType = order.rate_type;
    const deposit = BigInt(order.deposit_amount_minor ?? '0');
    let decision:
      | { kind: 'refund'; reason: string }
      | { kind: 'pay'; rate: bigint; gross: bigint; charge: bigint; fee: bigint; net: bigint };
    try {
      let rate = BigInt(order.rate_scaled);
      if (order.state_reason === OPERATOR_REFUND) throw new RefundSignal(OPERATOR_REFUND);
      if (rateType === 'fixed') {
        if (deposit !== BigInt(order.send_amount_minor)) throw new RefundSignal('amount_mismatch');
      } else {
        const current = midRateScaled(send.coin, receive.coin, requirePrices());
        if (movedBeyondTolerance(rate, current)) throw new RefundSignal('rate_moved');
        rate = current;
        const sendPair = findCoinNetwork(send.coin, send.network);
        const limits = sendPair ? limitsFor(sendPair, requirePrices()) : null;
        if (!limits || deposit < limits.minMinor || deposit > limits.maxMinor) {
          throw new RefundSignal('amount_out_of_range');
        }
      }
      const b = receiveFor(deposit, rate, send, receive, rateType);
      if (b.receiveMinor <= 0n) throw new RefundSignal('amount_out_of_range');
      decision = {
        kind: 'pay',
        rate,
        gross: b.grossMinor,
        charge: b.serviceChargeMinor,
        fee: b.networkFeeMinor,
        net: b.receiveMinor,
      };
    } catch (err) {
      if (!(err instanceof RefundSignal)) {
        onError(err, order.id); // no price now: try again next tick
        continue;
      }
      decision = { kind: 'refund', reason: err.reason };
    }

    if (decision.kind === 'refund') {
      const reason = decision.reason;
      if (await step(order, (trx) => refund(trx, order, 'exchanging', reason, at))) report.refunded++;
      continue;
    }
    const pay = decision;
    const payOnce = () =>
      db.transaction().execute(async (trx) => {
        // Another engine may be settling the same order: the row lock decides who pays.
        const current = await lockOrder(trx, order.id);
        if (current?.state !== 'exchanging') return false;
        await post(
          trx,
          `exchange:${order.id}:out`,
          [
            [system('system_liquidity', receive.coin), -pay.gross],
            [locked(order.user_id, receive.coin), pay.net + pay.fee],
            [system('system_fees', receive.coin), pay.charge],
          ],
          at,
          { orderId: order.id, leg: 'out', rate: pay.rate.toString() },
        );
        const requestId = await payouts.request(trx, {
          key: `exchange:${order.id}:payout`,
          orderId: order.id,
          userId: order.user_id,
          coin: receive.coin,
          network: receive.network,
          address: order.receive_address,
          amountMinor: pay.net + pay.fee,
          feeMinor: pay.fee,
        });
        await transitionOrder(trx, order.id, 'sending', {
          now: at,
          expectFrom: 'exchanging',
          reason: 'payout_requested',
          patch: {
            final_rate_scaled: pay.rate.toString(),
            receive_amount_minor: pay.net.toString(),
            service_charge_minor: pay.charge.toString(),
            network_fee_minor: pay.fee.toString(),
            payout_address: order.receive_address,
            payout_coin: receive.coin,
            payout_network: receive.network,
            payout_amount_minor: pay.net.toString(),
            payout_request_id: requestId,
          },
        });
        return true;
      });
    try {
      // Liquidity parked in convert's lanes is the engine's too: on a short lane 0, the coin's lanes are
      // consolidated into it and the payout tried once more before the order is held (as convert does).
      const paid = await payOnce().catch(async (err: unknown) => {
        if (!(err instanceof InsufficientBalanceError)) throw err;
        await consolidateLanes(db, receive.coin, at);
        return payOnce();
      });
      if (paid) report.sent++;
    } catch (err) {
      if (!(err instanceof InsufficientBalanceError)) {
        if (!(err instanceof IllegalTransitionError && err.raced)) onError(err, order.id);
        continue;
      }
      const ok = await step(order, (trx) =>
        transitionOrder(trx, order.id, 'suspended', {
          now: at,
          expectFrom: 'exchanging',
          reason: 'insufficient_liquidity',
        }).then(() => undefined),
      );
      if (ok) report.suspended++;
    }
  }
}

/** Thrown inside settle() to choose the refund path; never leaves the engine. */
class RefundSignal extends Error {
  readonly reason: string;

  constructor(reason: string) {
    super(reason);
    this.reason = reason;
  }
}
