import { sql } from 'kysely';
import { findCoinNetwork } from '../catalogue/catalogue.ts';
import { bookOrderCustody, orderInKey } from '../custody/order-custody.ts';
import { InsufficientBalanceError } from '../ledger/errors.ts';
import { consolidateLanes, external, post, system } from './engine-ledger.ts';
import { observeOrderDeposit, refund } from './engine-refund.ts';
import type { EngineContext, EngineStep, ExchangeEngineOptions, OrderFilter, Trx } from './engine-types.ts';
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

  /**
   * One step's batch, taken fairly: orders this step never took first, then the ones it took longest
   * ago; each order taken is stamped in the step's own column from a database sequence, so an order that
   * needs no action goes to the back of that step's queue only (another step reading it does not move
   * it), and a sequence, not a clock, rotates under a frozen test clock too. Taken and stamped in one
   * statement (rows an order step holds are skipped, taken next tick), so two instances do not take the
   * same batch.
   */
  async function fairBatch(stepName: EngineStep, where: OrderFilter): Promise<OrderRow[]> {
    const column = `queue_seq_${stepName}` as const;
    const taken = await db.transaction().execute(async (trx) => {
      // One instance takes a step's batch at a time (held to commit): the next one's statement then reads
      // the stamps just written. SKIP LOCKED alone is not enough: rows the other instance stamped and
      // committed while this statement ran are re-read as still matching (no re-sort after a lock wait).
      await sql`select pg_advisory_xact_lock(hashtext(${`exchange-engine-batch:${stepName}`}))`.execute(trx);
      return trx
        .updateTable('exchange_orders')
        .set({ [column]: sql<string>`nextval('exchange_engine_check_seq')` })
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('exchange_orders')
            .select('id')
            .where(where)
            .orderBy(sql`${sql.ref(column)} asc nulls first`)
            .orderBy('id')
            .limit(batch)
            .forUpdate()
            .skipLocked(),
        )
        .returningAll()
        .execute();
    });
    // RETURNING has no order: a stable one (the batch, not its order, is what is fair).
    return taken.sort((a, b) => a.id.localeCompare(b.id));
  }

  const inStates = (stepName: EngineStep, states: ExchangeState[]) =>
    fairBatch(stepName, (eb) => eb('state', 'in', states));

  /** Runs one order's step in its own transaction; an error is reported and the order retried next tick. */
  async function step(order: OrderRow, fn: (trx: Trx) => Promise<void>): Promise<boolean> {
    try {
      await db
        .transaction()
        .execute(fn)
        .catch(async (err: unknown) => {
          // A refund (or deposit leg) short on lane 0 while convert's lanes hold the coin: consolidate, retry once.
          if (!(err instanceof InsufficientBalanceError)) throw err;
          const at = now();
          for (const coin of new Set([order.send_coin, order.receive_coin])) await consolidateLanes(db, coin, at);
          await db.transaction().execute(fn);
        });
      return true;
    } catch (err) {
      // Another engine moved the order first (its state is no longer the one this step read): not an
      // error. Any other illegal transition is a defect of the engine: reported loudly (onError alerts).
      if (!(err instanceof IllegalTransitionError && err.raced)) onError(err, order.id);
      return false;
    }
  }

  const pairOf = (order: OrderRow) => ({
    send: { coin: order.send_coin, network: order.send_network },
    receive: { coin: order.receive_coin, network: order.receive_network },
  });

  const requiredConfirmations = (order: OrderRow) =>
    findCoinNetwork(order.send_coin, order.send_network)?.confirmations ?? 1;

  /**
   * Books the confirmed deposit into liquidity (once per order), and its coins on the order address into
   * the custody book, so that the sweeper moves them to the hot wallet once the order is done.
   */
  const postIn = async (trx: Trx, order: OrderRow, amountMinor: bigint, at: Date) => {
    await post(
      trx,
      `exchange:${order.id}:in`,
      [
        [external(order.send_coin), -amountMinor],
        [system('system_liquidity', order.send_coin), amountMinor],
      ],
      at,
      { orderId: order.id, leg: 'in' },
    );
    await bookOrderCustody(
      trx,
      {
        key: orderInKey(order.id),
        orderId: order.id,
        network: order.send_network,
        address: order.deposit_address as string,
        coin: order.send_coin,
        amountMinor,
      },
      at,
    );
  };

  const ctx: EngineContext = {
    db,
    now,
    deposits,
    payouts,
    batch,
    onError,
    lateWatchMs,
    fairBatch,
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
