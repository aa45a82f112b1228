/**
 * The exchange engine: a worker loop that moves orders through their states. All work is recorded
 * in the database (the order row, its events, ledger transfers keyed by order id), so a crash or a
 * second worker repeats nothing: each step re-reads the order under a row lock and only acts if it
 * is still in the state the step expects (transitionOrder's `expectFrom`).
 *
 *   waiting    -> confirming   a deposit to the order's address is seen
 *   waiting    -> expired      the deadline passed without a deposit (fixed: the rate window; float:
 *                              EXCHANGE_FLOAT_WINDOW_MS) by the chain head's time, not the wall clock
 *                              alone; the address is still watched for EXCHANGE_LATE_DEPOSIT_WATCH_MS
 *                              after the deadline, then no longer
 *   expired    -> confirming   a deposit mined before the deadline (block time) seen after the expiry
 *   confirming -> exchanging   the deposit has its confirmations: ledger leg in (external -> liquidity)
 *   exchanging -> sending      receive amount settled (fixed: locked rate; float: rate now), ledger leg
 *                              out (liquidity -> user_locked + service charge to fees), payout handed to
 *                              the signer, which settles user_locked -> external + network fee
 *   exchanging -> refunded     outside the limits, float rate moved beyond tolerance, fixed amount wrong
 *   exchanging -> suspended    not enough liquidity (risk hold for an operator)
 *   sending    -> completed    payout transaction mined (both hashes known)
 *   expired    -> refunded     a deposit arrived after the window: returned once confirmed
 *
 * Any other transfer to an order address (a second or partial payment, another token, the native coin)
 * is booked once confirmed as a late deposit, whatever the order's state (engine-extra-deposits.ts).
 */

import { createEngineContext } from './engine-context.ts';
import { confirmDeposits, observeDeposits } from './engine-deposits.ts';
import { bookExtraDeposits } from './engine-extra-deposits.ts';
import { trackPayouts } from './engine-payouts.ts';
import { settle } from './engine-settle.ts';
import type { ExchangeEngine, ExchangeEngineOptions, TickReport } from './engine-types.ts';

export {
  type ExchangeEngine,
  type ExchangeEngineOptions,
  type ObservedOrderDeposit,
  type ObservedTransfer,
  OPERATOR_REFUND,
  type OrderDepositObserver,
  type PayoutGateway,
  type PayoutRequest,
  type PayoutStatus,
  type TickReport,
} from './engine-types.ts';

const DEFAULT_INTERVAL_MS = 3000;

export function createExchangeEngine(options: ExchangeEngineOptions): ExchangeEngine {
  const ctx = createEngineContext(options);
  const { deposits, onError } = ctx;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  async function tick(): Promise<TickReport> {
    const report: TickReport = {
      expired: 0,
      seen: 0,
      confirmed: 0,
      sent: 0,
      refunded: 0,
      suspended: 0,
      completed: 0,
      failed: 0,
      extraDeposits: 0,
    };
    try {
      await deposits.refresh?.();
    } catch (err) {
      onError(err); // a chain that does not answer: orders on the others still move
    }
    // Deposits first; an order expires in the same look, only once the chain's head is past its deadline.
    await observeDeposits(ctx, report);
    await confirmDeposits(ctx, report);
    await settle(ctx, report);
    await trackPayouts(ctx, report);
    await bookExtraDeposits(ctx, report);
    return report;
  }

  return {
    tick,
    start() {
      if (timer) return;
      timer = setInterval(() => {
        // One tick at a time: a slow chain must not pile up ticks.
        running ??= tick()
          .catch((err: unknown) => onError(err))
          .finally(() => {
            running = null;
          });
      }, options.intervalMs ?? DEFAULT_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
