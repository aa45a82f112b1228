import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import {
  type ExchangeOrder,
  type ExchangeRate,
  fetchOrder,
  fetchOrders,
  fetchPairs,
  isSettled,
  type NewOrder,
  type PairAmount,
  placeOrder,
  type RateType,
  requestRate,
  restartOrder,
} from './exchange-api.ts';

/** Every query key of the exchange screens, in one place. */
export const exchangeKeys = {
  pairs: ['exchange', 'pairs'] as const,
  orders: ['exchange', 'orders'] as const,
  order: (id: string) => ['exchange', 'order', id] as const,
  estimate: (rateType: RateType, pair: PairAmount | null) => ['exchange', 'estimate', rateType, pair] as const,
};

/** Which pairs the server can serve now (it changes when a chain or a price feed comes or goes). */
export const pairsQuery = queryOptions({ queryKey: exchangeKeys.pairs, queryFn: fetchPairs, staleTime: 60_000 });

/** One order, re-read every `pollMs` until nothing more will change. */
export const orderQuery = (id: string, pollMs: number) =>
  queryOptions({
    queryKey: exchangeKeys.order(id),
    queryFn: () => fetchOrder(id),
    enabled: id !== '',
    refetchInterval: (query) => (isSettled(query.state.data) ? false : pollMs),
  });

export const useExchangeOrder = (id: string, pollMs: number) => useQuery(orderQuery(id, pollMs));

export const ordersQuery = infiniteQueryOptions({
  queryKey: exchangeKeys.orders,
  queryFn: ({ pageParam }) => fetchOrders(pageParam),
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (last) => last.nextCursor ?? undefined,
});

/** The user's orders, newest first, a page at a time. */
export const useExchangeOrders = () => useInfiniteQuery(ordersQuery);

/** A float estimate follows the market; re-ask this often while the screen is open. */
const FLOAT_REFRESH_MS = 15_000;
/** Ask for a new fixed rate this long before the lock runs out, so the order never meets an expired one. */
const FIXED_MARGIN_MS = 30_000;
const MIN_REFRESH_MS = 1_000;

/**
 * The quote the exchange screen shows, from the same server logic that prices the order, for the
 * chosen rate type. A fixed quote is a locked rate with its rate id; it is asked for again only
 * when the pair, amount or rate type changes, or shortly before the lock expires.
 */
export const estimateQuery = (pair: PairAmount | null, rateType: RateType) =>
  queryOptions({
    queryKey: exchangeKeys.estimate(rateType, pair),
    queryFn: () => requestRate({ ...(pair as PairAmount), rateType }),
    enabled: pair !== null,
    retry: false,
    staleTime: rateType === 'fixed' ? Number.POSITIVE_INFINITY : 0,
    refetchInterval: (query) => {
      const expiresAt = query.state.data?.expiresAt;
      if (rateType === 'float' || !expiresAt) return FLOAT_REFRESH_MS;
      return Math.max(MIN_REFRESH_MS, new Date(expiresAt).getTime() - Date.now() - FIXED_MARGIN_MS);
    },
  });

export const useExchangeEstimate = (pair: PairAmount | null, rateType: RateType) =>
  useQuery(estimateQuery(pair, rateType));

/** Places an order at the quote the user was shown (see placeOrder). */
export const usePlaceOrderMutation = () =>
  useMutation({
    mutationFn: ({ order, shown }: { order: Omit<NewOrder, 'rateId' | 'termsAccepted'>; shown?: ExchangeRate }) =>
      placeOrder(order, shown),
  });

/** A new order with the same pair, amount and addresses as an expired one. */
export const useRestartOrderMutation = () => useMutation({ mutationFn: (order: ExchangeOrder) => restartOrder(order) });
