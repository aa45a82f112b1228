import { AppError } from '../../errors/app-error.ts';
import { type CoinCode, type CoinNetwork, findCoinNetwork, type NetworkCode } from '../catalogue/catalogue.ts';
import { formatRate } from './pricing.ts';
import type { OrderRow } from './repository.ts';
import type { ExchangeOrder } from './schemas.ts';

/**
 * An order's pair checked against the catalogue and what the system serves, and an order as the API
 * shows it.
 *
 * Sides of an order the running system can serve: a deposit the engine can see on chain, and a
 * payout (or refund) the signer can send. An order needs the send side to accept deposits AND to
 * pay refunds, and the receive side to pay out; anything else would wait forever.
 */
export interface ExchangeAvailability {
  canObserveDeposit(coin: CoinCode, network: NetworkCode): boolean;
  canPayOut(coin: CoinCode, network: NetworkCode): boolean;
}

interface PairInput {
  sendCoin: CoinCode;
  sendNetwork: NetworkCode;
  receiveCoin: CoinCode;
  receiveNetwork: NetworkCode;
}

/** The two catalogue entries of an order, or EXCHANGE_PAIR_UNAVAILABLE. */
export function resolvePair(
  input: PairInput,
  availability?: ExchangeAvailability,
): { send: CoinNetwork; receive: CoinNetwork } {
  const send = findCoinNetwork(input.sendCoin, input.sendNetwork);
  const receive = findCoinNetwork(input.receiveCoin, input.receiveNetwork);
  const same = input.sendCoin === input.receiveCoin && input.sendNetwork === input.receiveNetwork;
  const served =
    !availability ||
    (availability.canObserveDeposit(input.sendCoin, input.sendNetwork) &&
      availability.canPayOut(input.sendCoin, input.sendNetwork) &&
      availability.canPayOut(input.receiveCoin, input.receiveNetwork));
  if (!send || !receive || same || !send.depositEnabled || !receive.withdrawEnabled || !served) {
    throw new AppError(
      'EXCHANGE_PAIR_UNAVAILABLE',
      `${input.sendCoin}/${input.sendNetwork} -> ${input.receiveCoin}/${input.receiveNetwork} is not offered`,
    );
  }
  return { send, receive };
}

export const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Where a refunded order's coins went (issue 37, item 9): a refund whose transaction failed was credited
 * to the wallet balance by the signer's unlock, and must not read as still on its way to the address.
 */
function refundView(row: OrderRow): Pick<ExchangeOrder, 'refundedTo' | 'refundFailedAt'> {
  if (row.state !== 'refunded') return { refundedTo: null, refundFailedAt: null };
  const failed = row.payout_failed_at !== null;
  return {
    refundedTo: row.payout_address === null || failed ? 'wallet' : 'address',
    refundFailedAt: iso(row.payout_failed_at),
  };
}

export function toApiOrder(row: OrderRow): ExchangeOrder {
  const send = findCoinNetwork(row.send_coin, row.send_network);
  return {
    id: row.id,
    status: row.state,
    statusReason: row.state_reason,
    rateType: row.rate_type,
    sendCoin: row.send_coin,
    sendNetwork: row.send_network,
    receiveCoin: row.receive_coin,
    receiveNetwork: row.receive_network,
    sendAmountMinor: row.send_amount_minor,
    depositAmountMinor: row.deposit_amount_minor,
    rate: formatRate(BigInt(row.rate_scaled)),
    finalRate: row.final_rate_scaled === null ? null : formatRate(BigInt(row.final_rate_scaled)),
    estimatedReceiveMinor: row.estimated_receive_minor,
    receiveAmountMinor: row.receive_amount_minor,
    serviceChargeMinor: row.service_charge_minor,
    networkFeeMinor: row.network_fee_minor,
    receiveAddress: row.receive_address,
    refundAddress: row.refund_address,
    depositAddress: row.deposit_address,
    depositTxHash: row.deposit_tx_hash,
    depositConfirmations: row.deposit_confirmations,
    requiredConfirmations: send?.confirmations ?? 1,
    payoutTxHash: row.payout_tx_hash,
    payoutAddress: row.payout_address,
    ...refundView(row),
    createdAt: row.created_at.toISOString(),
    sendAt: iso(row.deposit_seen_at),
    receiveAt: iso(row.payout_sent_at),
    deadlineAt: iso(row.deadline_at),
    updatedAt: row.updated_at.toISOString(),
  };
}
