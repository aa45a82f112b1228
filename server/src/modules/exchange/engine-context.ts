import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type CoinCode, findCoinNetwork } from '../catalogue/catalogue.ts';
import type { AccountRef, Leg } from '../ledger/model.ts';
import { postTransfer } from '../ledger/post-transfer.ts';
import { ensureAccount } from '../ledger/repository.ts';
import { observeOrderDeposit, refund } from './engine-refund.ts';
import type {
  ExchangeEngineOptions,
  ObservedOrderDeposit,
  OrderDepositObserver,
  PayoutGateway,
  Trx,
} from './engine-types.ts';
import { IllegalTransitionError } from './errors.ts';
import { LATE_DEPOSIT_WATCH_MS, type UsdPrices } from './pricing.ts';
import type { OrderRow } from './repository.ts';
import type { ExchangeState } from './states.ts';

const DEFAULT_BATCH = 50;

export async function accounts(trx: Trx, refs: AccountRef[]): Promise<string[]> {
  // Creating accounts in one fixed order: two engines never deadlock on the unique index.
  const key = (r: AccountRef) => `${r.kind}|${r.asset}`;
  const order = refs.map((ref, i) => ({ ref, i })).sort((a, b) => (key(a.ref) < key(b.ref) ? -1 : 1));
  const ids: string[] = new Array(refs.length);
  for (const { ref, i } of order) ids[i] = await ensureAccount(trx, ref);
  return ids;
}

export const external = (asset: CoinCode): AccountRef => ({ kind: 'system_external', userId: null, asset });
export const locked = (userId: string, asset: CoinCode): AccountRef => ({ kind: 'user_locked', userId, asset });
export const available = (userId: string, asset: CoinCode): AccountRef => ({ kind: 'user_available', userId, asset });
export const system = (kind: 'system_liquidity' | 'system_fees', asset: CoinCode): AccountRef => ({
  kind,
  userId: null,
  asset,
});

/** Posts legs (amounts by account ref, zero legs dropped) as one 'exchange' transfer. */
export async function post(trx: Trx, key: string, legs: Array<[AccountRef, bigint]>, now: Date, metadata: object) {
  const nonZero = legs.filter(([, amount]) => amount !== 0n);
  const ids = await accounts(
    trx,
    nonZero.map(([ref]) => ref),
  );
  const ledgerLegs: Leg[] = nonZero.map(([, amountMinor], i) => ({ accountId: ids[i] as string, amountMinor }));
  await postTransfer(trx, { idempotencyKey: key, kind: 'exchange', legs: ledgerLegs, metadata: { ...metadata } }, now);
}

/**
 * What every step of the engine shares: the database, clock, chain and payout gateways, the batch
 * size, and the small helpers (one order's step in its own transaction, the ledger's leg in, the
 * refund). The steps live in engine-deposits.ts, engine-settle.ts and engine-payouts.ts.
 */
export interface EngineContext {
  db: Kysely<Database>;
  now: () => Date;
  deposits: OrderDepositObserver;
  payouts: PayoutGateway;
  batch: number;
  onError: (err: unknown, orderId?: string) => void;
  lateWatchMs: number;
  inStates(states: ExchangeState[]): Promise<OrderRow[]>;
  step(order: OrderRow, fn: (trx: Trx) => Promise<void>): Promise<boolean>;
  pairOf(order: OrderRow): {
    send: { coin: CoinCode; network: OrderRow['send_network'] };
    receive: { coin: CoinCode; network: OrderRow['receive_network'] };
  };
  requiredConfirmations(order: OrderRow): number;
  postIn(trx: Trx, order: OrderRow, amountMinor: bigint, at: Date): Promise<unknown>;
  refund(trx: Trx, order: OrderRow, from: ExchangeState, reason: string, at: Date): Promise<void>;
  observeOrderDeposit(
    order: Parameters<typeof observeOrderDeposit>[1],
  ): Promise<ObservedOrderDeposit | null | undefined>;
  requirePrices(): UsdPrices;
}

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
