import { findCoinNetwork } from '../catalogue/catalogue.ts';
import { external, post, system } from './engine-ledger.ts';
import { observeOrderDeposit, refund } from './engine-refund.ts';
import type { EngineContext, ExchangeEngineOptions, Trx } from './engine-types.ts';
import { IllegalTransitionError } from './errors.ts';
import { LATE_DEPOSIT_WATCH_MS } from './pricing.ts';
import type { OrderRow } from './repository.ts';
import type { ExchangeState } from './states.ts';

const DEFAULT_BATCH = 50;

export function createEngineContext(options: ExchangeEngineOptions): EngineContext {
  const { db, now, deposits, payouts } = options;
  const batch = options.batchSize ?? DEFAULT_BATCH;
  const onError = options.onError ?? (() => {});
  const lateWatchMs = options.lateDepositWatchMs ?? LATE_DEPOSIT_WATCH_MS;

  const inStates = (states: ExchangeState[]) =>
    db
      .selectFrom('exchange_orders')
      .selectAll()
      .where('state', 'in', states)
      .orderBy('updated_at')
      .limit(batch)
      .execute();

  /** Runs one order's step in its own transaction; an error is reported and the order retried next tick. */
  async function step(order: OrderRow, fn: (trx: Trx) => Promise<void>): Promise<boolean> {
    try {
      await db.transaction().execute(fn);
      return true;
    } catch (err) {
      // Another engine moved the order first (its state is no longer the one this step read): not an error.
      if (!(err instanceof IllegalTransitionError)) onError(err, order.id);
      return false;
    }
  }

  const pairOf = (order: OrderRow) => ({
    send: { coin: order.send_coin, network: order.send_network },
    receive: { coin: order.receive_coin, network: order.receive_network },
  });

  const requiredConfirmations = (order: OrderRow) =>
    findCoinNetwork(order.send_coin, order.send_network)?.confirmations ?? 1;

  /** Books the confirmed deposit into liquidity (once per order). */
  const postIn = (trx: Trx, order: OrderRow, amountMinor: bigint, at: Date) =>
    post(
      trx,
      `exchange:${order.id}:in`,
      [
        [external(order.send_coin), -amountMinor],
        [system('system_liquidity', order.send_coin), amountMinor],
      ],
      at,
      { orderId: order.id, leg: 'in' },
    );

  const ctx: EngineContext = {
    db,
    now,
    deposits,
    payouts,
    batch,
    onError,
    lateWatchMs,
    inStates,
    step,
    pairOf,
    requiredConfirmations,
    postIn,
    refund: (trx, order, from, reason, at) => refund(ctx, trx, order, from, reason, at),
    observeOrderDeposit: (order) => observeOrderDeposit(ctx, order),
    requirePrices() {
      if (!options.prices) throw new Error('no price source');
      return options.prices;
    },
  };
  return ctx;
}
