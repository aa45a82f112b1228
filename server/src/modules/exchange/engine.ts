import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type CoinCode, findCoinNetwork, type NetworkCode } from '../catalogue/catalogue.ts';
import { InsufficientBalanceError } from '../ledger/errors.ts';
import type { AccountRef, Leg } from '../ledger/model.ts';
import { postTransfer } from '../ledger/post-transfer.ts';
import { ensureAccount } from '../ledger/repository.ts';
import { IllegalTransitionError } from './errors.ts';
import {
  LATE_DEPOSIT_WATCH_MS,
  lateWatchSince,
  limitsFor,
  midRateScaled,
  movedBeyondTolerance,
  receiveFor,
  type UsdPrices,
} from './pricing.ts';
import { findOrder, lockOrder, type OrderPatch, type OrderRow, updateFields } from './repository.ts';
import type { ExchangeState } from './states.ts';
import { transitionOrder } from './transition.ts';

/**
 * The exchange engine: a worker loop that moves orders through their states. All work is recorded
 * in the database (the order row, its events, ledger transfers keyed by order id), so a crash or a
 * second worker repeats nothing: each step re-reads the order under a row lock and only acts if it
 * is still in the state the step expects (transitionOrder's `expectFrom`).
 *
 *   waiting    -> confirming   a deposit to the order's address is seen
 *   waiting    -> expired      the deadline passed without a deposit (fixed: the rate window; float:
 *                              EXCHANGE_FLOAT_WINDOW_MS); the address is still watched for
 *                              EXCHANGE_LATE_DEPOSIT_WATCH_MS after the deadline, then no longer
 *   confirming -> exchanging   the deposit has its confirmations: ledger leg in (external -> liquidity)
 *   exchanging -> sending      receive amount settled (fixed: locked rate; float: rate now), ledger leg
 *                              out (liquidity -> user_locked + service charge to fees), payout handed to
 *                              the signer, which settles user_locked -> external + network fee
 *   exchanging -> refunded     outside the limits, float rate moved beyond tolerance, fixed amount wrong
 *   exchanging -> suspended    not enough liquidity (risk hold for an operator)
 *   sending    -> completed    payout transaction mined (both hashes known)
 *   expired    -> refunded     a deposit arrived after the window: returned once confirmed
 */

export interface ObservedOrderDeposit {
  txHash: string;
  /** Ledger minor units of the send coin. */
  amountMinor: bigint;
  confirmations: number;
  /** When the chain says it happened (block time); a fixed order compares it with its deadline. */
  blockTime?: Date;
}

/** Reads the chain for transfers to an order's deposit address (modules/chain). */
export interface OrderDepositObserver {
  /** Reads what is new on the chains (a block scanner's step); called once at the start of each tick. */
  refresh?(): Promise<void>;
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
}

export interface ExchangeEngine {
  tick(): Promise<TickReport>;
  start(): void;
  stop(): Promise<void>;
}

/** Reason an operator gives when releasing a suspended order to be refunded (see ops.ts). */
export const OPERATOR_REFUND = 'operator_refund';

const DEFAULT_BATCH = 50;
const DEFAULT_INTERVAL_MS = 3000;

type Trx = Transaction<Database>;

async function accounts(trx: Trx, refs: AccountRef[]): Promise<string[]> {
  // Creating accounts in one fixed order: two engines never deadlock on the unique index.
  const key = (r: AccountRef) => `${r.kind}|${r.asset}`;
  const order = refs.map((ref, i) => ({ ref, i })).sort((a, b) => (key(a.ref) < key(b.ref) ? -1 : 1));
  const ids: string[] = new Array(refs.length);
  for (const { ref, i } of order) ids[i] = await ensureAccount(trx, ref);
  return ids;
}

const external = (asset: CoinCode): AccountRef => ({ kind: 'system_external', userId: null, asset });
const locked = (userId: string, asset: CoinCode): AccountRef => ({ kind: 'user_locked', userId, asset });
const available = (userId: string, asset: CoinCode): AccountRef => ({ kind: 'user_available', userId, asset });
const system = (kind: 'system_liquidity' | 'system_fees', asset: CoinCode): AccountRef => ({
  kind,
  userId: null,
  asset,
});

/** Posts legs (amounts by account ref, zero legs dropped) as one 'exchange' transfer. */
async function post(trx: Trx, key: string, legs: Array<[AccountRef, bigint]>, now: Date, metadata: object) {
  const nonZero = legs.filter(([, amount]) => amount !== 0n);
  const ids = await accounts(
    trx,
    nonZero.map(([ref]) => ref),
  );
  const ledgerLegs: Leg[] = nonZero.map(([, amountMinor], i) => ({ accountId: ids[i] as string, amountMinor }));
  await postTransfer(trx, { idempotencyKey: key, kind: 'exchange', legs: ledgerLegs, metadata: { ...metadata } }, now);
}

export function createExchangeEngine(options: ExchangeEngineOptions): ExchangeEngine {
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

  /** Returns the deposit minus the send network's fee to the refund address (or fails if nothing is left). */
  async function refund(trx: Trx, order: OrderRow, from: ExchangeState, reason: string, at: Date) {
    const coin = order.send_coin;
    const network = order.send_network;
    const deposit = BigInt(order.deposit_amount_minor ?? '0');
    const fee = findCoinNetwork(coin, network)?.withdrawFeeMinor ?? 0n;
    const address = order.refund_address;
    if (deposit === 0n) {
      // Dust below the ledger's unit: nothing was booked, nothing to return.
      await transitionOrder(trx, order.id, 'failed', { now: at, expectFrom: from, reason: `${reason}; dust` });
      return;
    }
    if (deposit <= fee || address === null) {
      // No refund address (float orders may omit it), or too little to pay the network fee: the
      // deposit goes to the user's wallet balance instead, whole, where it can be withdrawn or used.
      await post(
        trx,
        `exchange:${order.id}:refund`,
        [
          [system('system_liquidity', coin), -deposit],
          [available(order.user_id, coin), deposit],
        ],
        at,
        { orderId: order.id, leg: 'refund_to_wallet', reason },
      );
      await transitionOrder(trx, order.id, 'refunded', {
        now: at,
        expectFrom: from,
        reason: `${reason}; to_wallet`,
        patch: { payout_coin: coin, payout_network: network, payout_amount_minor: deposit.toString() },
      });
      return;
    }
    const amountMinor = deposit - fee;
    await post(
      trx,
      `exchange:${order.id}:refund`,
      [
        [system('system_liquidity', coin), -deposit],
        [locked(order.user_id, coin), deposit],
      ],
      at,
      { orderId: order.id, leg: 'refund', reason },
    );
    const requestId = await payouts.request(trx, {
      key: `exchange:${order.id}:refund`,
      orderId: order.id,
      userId: order.user_id,
      coin,
      network,
      address,
      amountMinor: deposit,
      feeMinor: fee,
    });
    await transitionOrder(trx, order.id, 'refunded', {
      now: at,
      expectFrom: from,
      reason,
      patch: {
        payout_address: address,
        payout_coin: coin,
        payout_network: network,
        payout_amount_minor: amountMinor.toString(),
        payout_request_id: requestId,
      },
    });
  }

  /** The order's deposit as the chain shows it now; undefined when the lookup failed (reported, retried next tick). */
  async function observeOrderDeposit(order: {
    id: string;
    send_network: NetworkCode;
    send_coin: CoinCode;
    deposit_address: string | null;
  }): Promise<ObservedOrderDeposit | null | undefined> {
    try {
      return await deposits.observe({
        network: order.send_network,
        coin: order.send_coin,
        address: order.deposit_address as string,
      });
    } catch (err) {
      onError(err, order.id);
      return undefined;
    }
  }

  /** Waiting orders, and expired ones within the late-deposit watch: look for their deposit on chain. */
  async function observeDeposits(report: TickReport) {
    const watchedSince = lateWatchSince(now(), lateWatchMs);
    const orders = await db
      .selectFrom('exchange_orders')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('state', '=', 'waiting'),
          eb.and([
            eb('state', '=', 'expired'),
            eb('deposit_tx_hash', 'is', null),
            eb('deadline_at', '>', watchedSince),
          ]),
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
      const late =
        order.deadline_at !== null && deposit.blockTime !== undefined && deposit.blockTime > order.deadline_at;
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
  async function expireOverdue(report: TickReport) {
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
  async function confirmDeposits(report: TickReport) {
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

  /** Exchanging orders: settle the amount and pay out, or refund. */
  async function settle(report: TickReport) {
    for (const order of await inStates(['exchanging'])) {
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
      try {
        const paid = await db.transaction().execute(async (trx) => {
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
        if (paid) report.sent++;
      } catch (err) {
        if (!(err instanceof InsufficientBalanceError)) {
          if (!(err instanceof IllegalTransitionError)) onError(err, order.id);
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

  /** Sending orders (and refunds): record the payout transaction when the signer reports it. */
  async function trackPayouts(report: TickReport) {
    const orders = await db
      .selectFrom('exchange_orders')
      .selectAll()
      .where((eb) =>
        eb.or([eb('state', '=', 'sending'), eb.and([eb('state', '=', 'refunded'), eb('payout_tx_hash', 'is', null)])]),
      )
      .where('payout_request_id', 'is not', null)
      .orderBy('updated_at')
      .limit(batch)
      .execute();
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

  function requirePrices(): UsdPrices {
    if (!options.prices) throw new Error('no price source');
    return options.prices;
  }

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
    };
    try {
      await deposits.refresh?.();
    } catch (err) {
      onError(err); // a chain that does not answer: orders on the others still move
    }
    // Deposits first, so a deposit seen just before the deadline wins over the expiry.
    await observeDeposits(report);
    await expireOverdue(report);
    await confirmDeposits(report);
    await settle(report);
    await trackPayouts(report);
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

/** Thrown inside settle() to choose the refund path; never leaves the engine. */
class RefundSignal extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}
