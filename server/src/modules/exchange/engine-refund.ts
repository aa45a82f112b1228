import type { CoinCode, NetworkCode } from '../catalogue/catalogue.ts';
import { findCoinNetwork } from '../catalogue/catalogue.ts';
import { available, locked, post, system } from './engine-ledger.ts';
import type { EngineContext, ObservedOrderDeposit, Trx } from './engine-types.ts';
import type { OrderRow } from './repository.ts';
import type { ExchangeState } from './states.ts';
import { transitionOrder } from './transition.ts';

/** Refunds (to the refund address, or whole to the wallet) and the order-deposit look-up, shared by the steps. */

/** Returns the deposit minus the send network's fee to the refund address (or fails if nothing is left). */
export async function refund(
  ctx: EngineContext,
  trx: Trx,
  order: OrderRow,
  from: ExchangeState,
  reason: string,
  at: Date,
) {
  const { payouts } = ctx;
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
export async function observeOrderDeposit(
  ctx: EngineContext,
  order: {
    id: string;
    send_network: NetworkCode;
    send_coin: CoinCode;
    deposit_address: string | null;
  },
): Promise<ObservedOrderDeposit | null | undefined> {
  const { deposits, onError } = ctx;
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
