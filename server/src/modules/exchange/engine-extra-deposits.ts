import { findCoinNetwork } from '../catalogue/catalogue.ts';
import { bookOrderCustody, orderExtraKey } from '../custody/order-custody.ts';
import { alertIfDepositReorged } from './engine-deposit-reorg.ts';
import { available, external, locked, post } from './engine-ledger.ts';
import type { EngineContext, ObservedTransfer, TickReport, Trx } from './engine-types.ts';
import { lateWatchSince } from './pricing.ts';
import { type OrderRow, updateFields } from './repository.ts';

/**
 * Transfers to an order address besides the one the order counts (issue 37, item 2): a user who sends a
 * test amount and then the rest, another token, or the native coin. Each one, once it has its coin's
 * confirmations, is booked as a late deposit: refunded to the order's refund address less the network
 * fee, or credited whole to the user's wallet (no refund address, or not more than the fee). The row
 * in exchange_extra_deposits (unique per transfer) and its ledger transfer are one transaction.
 *
 * Looked at once the order has counted its deposit or stopped waiting for one, until the late-deposit
 * watch ends. While an order has no counted deposit, transfers of its send coin are left to the deposit
 * steps (the first one becomes the order's deposit).
 */
export async function bookExtraDeposits(ctx: EngineContext, report: TickReport) {
  const { deposits, now, lateWatchMs, onError, step, fairBatch } = ctx;
  if (!deposits.transfers) return;
  const watchedSince = lateWatchSince(now(), lateWatchMs);
  const orders = await fairBatch('extra', (eb) =>
    eb.and([
      eb('deposit_address', 'is not', null),
      eb('state', 'not in', ['new', 'waiting']),
      eb('deadline_at', '>', watchedSince),
    ]),
  );
  for (const order of orders) {
    let transfers: ObservedTransfer[];
    try {
      transfers = await deposits.transfers({ network: order.send_network, address: order.deposit_address as string });
    } catch (err) {
      onError(err, order.id);
      continue;
    }
    const placed = placeInTransactions(transfers);
    const counted = countedTransfer(order, placed);
    if (counted && counted.logIndex !== order.deposit_log_index) {
      // Mined again at another index (a reorg): the order shows where its deposit is now.
      const logIndex = counted.logIndex;
      await step(order, (trx) => updateFields(trx, order.id, { deposit_log_index: logIndex }, now()));
    }
    // A booked deposit the chain no longer shows: a reorg removed it after the order used it.
    await alertIfDepositReorged(ctx, order, counted).catch((err: unknown) => onError(err, order.id));
    for (const transfer of placed.filter((t) => t !== counted && isExtra(order, t))) {
      let booked = false;
      const ok = await step(order, async (trx) => {
        booked = await bookExtra(ctx, trx, order, transfer);
      });
      if (ok && booked) report.extraDeposits++;
    }
  }
}

/** A transfer with its place among its transaction's transfers of its coin to the order's address. */
export interface PlacedTransfer extends ObservedTransfer {
  /** From 0, by log index, dust left out: with the hash and coin, the transfer's key that a reorg cannot move. */
  txPosition: number;
}

/**
 * The non-dust transfers, each with its place among its transaction's transfers of its coin to this
 * address (ordered by log index). Not the block-level log index: a reorg that mines the same transaction
 * again in another block moves its logs, not their order within it (review of issue 37, HIGH 1). A
 * native transfer (-1) is its transaction's only one: 0. Every transfer of a transaction to the address
 * is in the list (they share a block, and the look-up reads whole blocks).
 */
export function placeInTransactions(transfers: readonly ObservedTransfer[]): PlacedTransfer[] {
  const next = new Map<string, number>();
  return transfers
    .filter((t) => t.amountMinor > 0n)
    .sort((a, b) => a.logIndex - b.logIndex)
    .map((t) => {
      const key = `${t.txHash.toLowerCase()}|${t.coin}`;
      const txPosition = next.get(key) ?? 0;
      next.set(key, txPosition + 1);
      return { ...t, txPosition };
    });
}

/**
 * The order's counted deposit among the transfers: the first non-dust transfer of its send coin in its
 * deposit transaction (what the deposit look-up counts), wherever a reorg put that transaction. Any other
 * transfer in the same transaction is an extra deposit.
 */
function countedTransfer(order: OrderRow, placed: PlacedTransfer[]): PlacedTransfer | undefined {
  const hash = order.deposit_tx_hash?.toLowerCase();
  if (hash === undefined) return undefined;
  return placed.find((t) => t.coin === order.send_coin && t.txHash.toLowerCase() === hash && t.txPosition === 0);
}

/** Confirmed, not dust, and not a send-coin transfer that may still become the order's deposit. */
function isExtra(order: OrderRow, t: ObservedTransfer): boolean {
  if (t.amountMinor <= 0n) return false;
  if (t.confirmations < (findCoinNetwork(t.coin, order.send_network)?.confirmations ?? Number.MAX_SAFE_INTEGER))
    return false;
  if (t.coin !== order.send_coin) return true;
  return order.deposit_tx_hash !== null;
}

/** Records and books one transfer; false when it was booked before. */
async function bookExtra(ctx: EngineContext, trx: Trx, order: OrderRow, t: PlacedTransfer): Promise<boolean> {
  const at = ctx.now();
  const network = order.send_network;
  const fee = findCoinNetwork(t.coin, network)?.withdrawFeeMinor ?? 0n;
  const address = order.refund_address;
  const toRefund = address !== null && t.amountMinor > fee;
  const row = await trx
    .insertInto('exchange_extra_deposits')
    .values({
      order_id: order.id,
      network,
      coin: t.coin,
      tx_hash: t.txHash.toLowerCase(),
      log_index: t.logIndex,
      tx_position: t.txPosition,
      amount_minor: t.amountMinor.toString(),
      block_number: t.blockNumber.toString(),
      outcome: toRefund ? 'refund' : 'to_wallet',
      payout_request_id: null, // a refund's, set below in this transaction
      created_at: at,
    })
    .onConflict((oc) => oc.constraint('exchange_extra_deposits_transfer').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) return false;
  // The coins sit on the order address: into the custody book, for the sweeper.
  await bookOrderCustody(
    trx,
    {
      key: orderExtraKey(row.id),
      orderId: order.id,
      network,
      address: order.deposit_address as string,
      coin: t.coin,
      amountMinor: t.amountMinor,
    },
    at,
  );
  const key = `exchange:${order.id}:extra:${row.id}`;
  const meta = {
    orderId: order.id,
    leg: 'extra_deposit',
    txHash: t.txHash,
    logIndex: t.logIndex,
    txPosition: t.txPosition,
  };
  if (!toRefund) {
    await post(
      trx,
      key,
      [
        [external(t.coin), -t.amountMinor],
        [available(order.user_id, t.coin), t.amountMinor],
      ],
      at,
      { ...meta, outcome: 'to_wallet' },
    );
    return true;
  }
  await post(
    trx,
    key,
    [
      [external(t.coin), -t.amountMinor],
      [locked(order.user_id, t.coin), t.amountMinor],
    ],
    at,
    { ...meta, outcome: 'refund' },
  );
  const requestId = await ctx.payouts.request(trx, {
    key,
    orderId: order.id,
    userId: order.user_id,
    coin: t.coin,
    network,
    address: address as string,
    amountMinor: t.amountMinor,
    feeMinor: fee,
  });
  await trx
    .updateTable('exchange_extra_deposits')
    .set({ payout_request_id: requestId })
    .where('id', '=', row.id)
    .execute();
  return true;
}
