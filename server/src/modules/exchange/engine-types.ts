import type { Expression, ExpressionBuilder, Kysely, SqlBool, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CoinCode, NetworkCode } from '../catalogue/catalogue.ts';
import type { UsdPrices } from './pricing.ts';
import type { OrderRow } from './repository.ts';
import type { ExchangeState } from './states.ts';

/** The exchange engine's interfaces: what it observes, pays through and reports (engine.ts runs it). */
export interface ObservedOrderDeposit {
  txHash: string;
  /** Ledger minor units of the send coin. */
  amountMinor: bigint;
  confirmations: number;
  /** When the chain says it happened (block time); a fixed order compares it with its deadline. */
  blockTime?: Date;
  /** The transfer's log index in its block (-1 native): with the hash, which transfer is counted. */
  logIndex?: number;
}

/** Any transfer to an order address: every configured token and the native coin (issue 37, item 2). */
export interface ObservedTransfer {
  coin: CoinCode;
  txHash: string;
  /** The log's index in its block; -1 for a native transfer. */
  logIndex: number;
  /** Ledger minor units of `coin` (0 for dust below the ledger's unit). */
  amountMinor: bigint;
  confirmations: number;
  blockNumber: bigint;
}

/** Reads the chain for transfers to an order's deposit address (modules/chain). */
export interface OrderDepositObserver {
  /** Reads what is new on the chains (a block scanner's step); called once at the start of each tick. */
  refresh?(): Promise<void>;
  /**
   * The block time of the newest block whose transfers of `coin` on `network` observe() has read (the
   * chain head for a log query, the scanner's cursor for native coins), or null when unknown (chain not
   * running, scanner not started). Read BEFORE observe(): an order whose observe() then finds nothing
   * had no deposit up to that time. The engine expires an order only when this is past its deadline,
   * so a watcher behind the chain never turns an in-time deposit into a late one. Absent: the wall clock.
   */
  headTime?(order: { network: NetworkCode; coin: CoinCode }): Promise<Date | null>;
  /**
   * Every transfer to `address` still on the chain, of every configured token and the native coin (the
   * engine books all but the order's counted deposit as late deposits). Absent: none are looked for.
   */
  transfers?(order: { network: NetworkCode; address: string }): Promise<ObservedTransfer[]>;
  /**
   * Whether the chain has a receipt for `txHash` (read from one client). The engine alerts a booked
   * deposit as reorged only when it is absent from transfers() and this says false: a deposit merely
   * older than what transfers() reads back is still on the chain. Absent: not checked.
   */
  hasReceipt?(order: { network: NetworkCode; txHash: string }): Promise<boolean>;
  /** The first transfer of `coin` to `address`, or null when none is seen (yet, or any more after a reorg). */
  observe(order: { network: NetworkCode; coin: CoinCode; address: string }): Promise<ObservedOrderDeposit | null>;
}

export type PayoutStatus =
  | { state: 'pending' }
  | { state: 'sent'; txHash: string }
  | { state: 'failed'; reason: string };

export interface PayoutRequest {
  /** Unique per payout: `exchange:<orderId>:payout` or `:refund`. */
  key: string;
  orderId: string;
  userId: string;
  coin: CoinCode;
  network: NetworkCode;
  address: string;
  /**
   * Put into the user's locked balance by the engine's ledger leg; the payout settles it like a
   * withdrawal: `amountMinor - feeMinor` arrives on chain, `feeMinor` (network fee) goes to system_fees.
   */
  amountMinor: bigint;
  feeMinor: bigint;
}

/** Hands payouts to the signer process (src/signer) as withdrawals. The ledger legs are posted by the engine. */
export interface PayoutGateway {
  /** Records the payout for the signer in the caller's transaction; idempotent on `key`. Returns its id. */
  request(trx: Transaction<Database>, payout: PayoutRequest): Promise<string>;
  status(requestId: string): Promise<PayoutStatus>;
}

export interface ExchangeEngineOptions {
  db: Kysely<Database>;
  now: () => Date;
  prices: UsdPrices | null;
  deposits: OrderDepositObserver;
  payouts: PayoutGateway;
  /** Orders handled per step and tick (bounded work per tick). Default 50. */
  batchSize?: number;
  /** Loop period. Default 3 s. */
  intervalMs?: number;
  /** How long after its deadline an expired order is still watched for a late deposit; default 7 days. */
  lateDepositWatchMs?: number;
  onError?: (err: unknown, orderId?: string) => void;
}

export interface TickReport {
  expired: number;
  seen: number;
  confirmed: number;
  sent: number;
  refunded: number;
  suspended: number;
  completed: number;
  failed: number;
  /** Transfers besides an order's counted deposit, booked (refunded or credited to the wallet). */
  extraDeposits: number;
}

export interface ExchangeEngine {
  tick(): Promise<TickReport>;
  start(): void;
  stop(): Promise<void>;
}

/** Reason an operator gives when releasing a suspended order to be refunded (see ops.ts). */
export const OPERATOR_REFUND = 'operator_refund';

export type Trx = Transaction<Database>;

/** Which orders a step looks at (a where clause on exchange_orders). */
export type OrderFilter = (eb: ExpressionBuilder<Database, 'exchange_orders'>) => Expression<SqlBool>;

/** The engine's steps, each with its own queue cursor on exchange_orders (`queue_seq_<step>`, migration 0048). */
export type EngineStep = 'observe' | 'confirm' | 'settle' | 'payouts' | 'extra';

/** The part of an order a deposit look-up needs. */
export interface OrderDepositRef {
  id: string;
  send_network: NetworkCode;
  send_coin: CoinCode;
  deposit_address: string | null;
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
  /** Up to `batch` orders matching `where`, the ones `step` took least recently first (each stamped as taken). */
  fairBatch(step: EngineStep, where: OrderFilter): Promise<OrderRow[]>;
  inStates(step: EngineStep, states: ExchangeState[]): Promise<OrderRow[]>;
  step(order: OrderRow, fn: (trx: Trx) => Promise<void>): Promise<boolean>;
  pairOf(order: OrderRow): {
    send: { coin: CoinCode; network: OrderRow['send_network'] };
    receive: { coin: CoinCode; network: OrderRow['receive_network'] };
  };
  requiredConfirmations(order: OrderRow): number;
  postIn(trx: Trx, order: OrderRow, amountMinor: bigint, at: Date): Promise<unknown>;
  refund(trx: Trx, order: OrderRow, from: ExchangeState, reason: string, at: Date): Promise<void>;
  observeOrderDeposit(order: OrderDepositRef): Promise<ObservedOrderDeposit | null | undefined>;
  requirePrices(): UsdPrices;
}
