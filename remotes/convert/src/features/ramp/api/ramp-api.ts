import type { paths } from '@cw/shared-state/api';
import { api, unwrap } from '@cw/shared-state/api';
import type { Language } from '@cw/shared-state/i18n';
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';

export type QuoteRequest = paths['/api/ramp/quotes']['post']['requestBody']['content']['application/json'];
export type PlaceOrder = paths['/api/ramp/orders']['post']['requestBody']['content']['application/json'];
export type RampOptions = Awaited<ReturnType<typeof fetchOptions>>;
export type RampQuote = Awaited<ReturnType<typeof requestQuote>>;
export type RampOrder = Awaited<ReturnType<typeof fetchOrder>>;
export type RampState = RampOrder['state'];
export type Side = RampQuote['side'];

export const fetchOptions = () => unwrap(api.GET('/api/ramp/options'));
export const requestQuote = (body: QuoteRequest) => unwrap(api.POST('/api/ramp/quotes', { body }));
export const placeOrder = (body: PlaceOrder) => unwrap(api.POST('/api/ramp/orders', { body }));
export const fetchOrder = (id: string) => unwrap(api.GET('/api/ramp/orders/{id}', { params: { path: { id } } }));
export const cancelSell = (id: string) =>
  unwrap(api.POST('/api/ramp/orders/{id}/cancel', { params: { path: { id } } }));
export const sellDeposit = (id: string, transactionId: string) =>
  unwrap(api.POST('/api/ramp/orders/{id}/sell-deposit', { params: { path: { id } }, body: { transactionId } }));

export interface OrderFilter {
  side?: Side | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const fetchOrders = (filter: OrderFilter, before: string | undefined) =>
  unwrap(
    api.GET('/api/ramp/orders', {
      params: { query: { ...filter, ...(before ? { before } : {}), limit: 20 } },
    }),
  );

/** Nothing more will happen to an order in these states. */
export const isFinalState = (state: RampState) => ['completed', 'refunded', 'expired'].includes(state);

/**
 * Nothing more to show: a final order, and for a buy its coins credited (or refused) on chain, for a
 * sell our transfer to the provider settled (the provider may report before our signer does).
 */
export function isSettled(order: RampOrder): boolean {
  if (!isFinalState(order.state)) return false;
  if (order.side === 'sell') {
    return (
      order.transfer === null ||
      ['transfer_successful', 'transfer_failed', 'review_rejected'].includes(order.transfer.state)
    );
  }
  if (order.state !== 'completed') return true;
  return order.deposit !== null && order.deposit.state !== 'confirming';
}

export const rampKeys = {
  options: ['ramp', 'options'] as const,
  orders: (filter: OrderFilter) => ['ramp', 'orders', filter] as const,
  order: (id: string) => ['ramp', 'order', id] as const,
};

export const useRampOptions = () =>
  useQuery(queryOptions({ queryKey: rampKeys.options, queryFn: fetchOptions, staleTime: 60_000 }));

/** One order, re-read every `pollMs` until it can no longer change (a failed sell may still be refunded). */
export const useRampOrder = (id: string, pollMs: number) =>
  useQuery({
    queryKey: rampKeys.order(id),
    queryFn: () => fetchOrder(id),
    enabled: id !== '',
    refetchInterval: (query) => (query.state.data && isSettled(query.state.data) ? false : pollMs),
  });

export const useRampOrders = (filter: OrderFilter, enabled: boolean) =>
  useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: rampKeys.orders(filter),
      queryFn: ({ pageParam }) => fetchOrders(filter, pageParam),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.next ?? undefined,
      enabled,
    }),
  );

export const usePlaceOrder = () => useMutation({ mutationFn: placeOrder });

/** The user's available balance per coin (what a sell may take). */
export const useAvailable = () =>
  useQuery({
    queryKey: ['ramp', 'balances'],
    queryFn: () => unwrap(api.GET('/api/me/balances')),
    select: (rows) => new Map(rows.map((b) => [b.asset as string, b.availableMinor])),
  });

/**
 * A sell sends coins out like a withdrawal, so it takes a `withdraw` e-mail code (and the fund
 * password once set): this e-mails that code, in the UI language.
 */
export const sendSellCode = (language: Language) =>
  unwrap(api.POST('/api/wallet/withdrawals/email-code', { body: { language } }));
