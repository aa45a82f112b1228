import { api, unwrap } from '@cw/shared-state/api';

export const fetchPairs = () => unwrap(api.GET('/api/exchange/pairs'));
export const fetchOrder = (id: string) => unwrap(api.GET('/api/exchange/orders/{id}', { params: { path: { id } } }));
export const fetchOrders = (cursor?: string) =>
  unwrap(api.GET('/api/exchange/orders', { params: { query: cursor ? { cursor, limit: 20 } : { limit: 20 } } }));

export type ExchangeOrder = Awaited<ReturnType<typeof fetchOrder>>;
export type ExchangePairs = Awaited<ReturnType<typeof fetchPairs>>;
export type CoinCode = ExchangeOrder['sendCoin'];
export type NetworkCode = ExchangeOrder['sendNetwork'];
export type OrderStatus = ExchangeOrder['status'];
export type RateType = ExchangeOrder['rateType'];

export interface PairAmount {
  sendCoin: CoinCode;
  sendNetwork: NetworkCode;
  receiveCoin: CoinCode;
  receiveNetwork: NetworkCode;
  /** Decimal string of the send coin's minor units. */
  amountMinor: string;
}

export interface NewOrder extends PairAmount {
  rateType: RateType;
  rateId?: string;
  receiveAddress: string;
  refundAddress?: string;
  termsAccepted: true;
}

export const requestRate = (body: PairAmount & { rateType: RateType }) =>
  unwrap(api.POST('/api/exchange/rates', { body }));
export const createOrder = (body: NewOrder) => unwrap(api.POST('/api/exchange/orders', { body }));
export type ExchangeRate = Awaited<ReturnType<typeof requestRate>>;

/** States the order never leaves by itself. */
export const FINAL_STATUSES: readonly OrderStatus[] = ['completed', 'expired', 'refunded', 'failed'];

/** Nothing more will change: a final state, and for a refund its transaction hash is known. */
export function isSettled(order: ExchangeOrder | undefined): boolean {
  if (!order || !FINAL_STATUSES.includes(order.status)) return false;
  // A refund to the wallet balance (no refund address, or its transaction failed) has no transaction.
  return order.status !== 'refunded' || order.payoutTxHash !== null || order.refundedTo === 'wallet';
}

/**
 * Places an order at the quote the user was shown: a fixed order carries the shown quote's rate id, so
 * the order charges exactly the fee and pays exactly the amount on the screen (the lock holds 20 minutes,
 * the deposit window). Without a shown quote (restart after the window ran out) a new rate is locked.
 */
export async function placeOrder(
  order: Omit<NewOrder, 'rateId' | 'termsAccepted'>,
  shown?: ExchangeRate,
): Promise<ExchangeOrder> {
  const { rateType, receiveAddress, refundAddress, ...pair } = order;
  const rate =
    rateType === 'fixed' ? (shownFixedRate(order, shown) ?? (await requestRate({ ...pair, rateType }))) : null;
  return createOrder({
    ...pair,
    rateType,
    ...(rate?.rateId ? { rateId: rate.rateId } : {}),
    receiveAddress,
    ...(refundAddress ? { refundAddress } : {}),
    termsAccepted: true,
  });
}

/** The shown quote when it is a fixed rate for exactly this pair and amount. */
function shownFixedRate(order: PairAmount, shown: ExchangeRate | undefined): ExchangeRate | null {
  if (shown?.rateType !== 'fixed' || !shown.rateId) return null;
  const same =
    shown.sendCoin === order.sendCoin &&
    shown.sendNetwork === order.sendNetwork &&
    shown.receiveCoin === order.receiveCoin &&
    shown.receiveNetwork === order.receiveNetwork &&
    shown.sendAmountMinor === order.amountMinor;
  return same ? shown : null;
}

export function restartOrder(order: ExchangeOrder): Promise<ExchangeOrder> {
  return placeOrder({
    sendCoin: order.sendCoin,
    sendNetwork: order.sendNetwork,
    receiveCoin: order.receiveCoin,
    receiveNetwork: order.receiveNetwork,
    amountMinor: order.sendAmountMinor,
    rateType: order.rateType,
    receiveAddress: order.receiveAddress,
    ...(order.refundAddress ? { refundAddress: order.refundAddress } : {}),
  });
}
