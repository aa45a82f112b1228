import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { ConvertCoin } from '../utils/coins.ts';
import { holdQuote } from '../utils/held-quote.ts';
import { acceptQuote, fetchBalances, fetchConversion, fetchHistory, requestQuote } from './convert-api.ts';

/** Every query key of the convert screens, in one place; all start with 'convert'. */
export const convertKeys = {
  all: ['convert'] as const,
  balances: ['convert', 'balances'] as const,
  history: (pair: { from?: string; to?: string }) => ['convert', 'history', pair] as const,
  conversion: (id: string) => ['convert', 'conversion', id] as const,
  quote: (from: string, to: string, amountMinor: bigint | null) =>
    ['convert', 'quote', from, to, amountMinor?.toString() ?? ''] as const,
};

/** Available balance per coin (only for a signed-in user). */
export const useConvertBalances = (signedIn: boolean) =>
  useQuery({ queryKey: convertKeys.balances, queryFn: fetchBalances, enabled: signedIn });

export const conversionQuery = (id: string) =>
  queryOptions({ queryKey: convertKeys.conversion(id), queryFn: () => fetchConversion(id), enabled: id !== '' });

export const useConversion = (id: string) => useQuery(conversionQuery(id));

export const historyQuery = (pair: { from?: ConvertCoin; to?: ConvertCoin }) =>
  infiniteQueryOptions({
    queryKey: convertKeys.history(pair),
    queryFn: ({ pageParam }) => fetchHistory(pair, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** The user's conversions, newest first, a page at a time; optionally one pair only. */
export const useConvertHistory = (pair: { from?: ConvertCoin; to?: ConvertCoin }) =>
  useInfiniteQuery(historyQuery(pair));

/**
 * A quote asked once per input. It is not refreshed when it expires: the user sees the countdown
 * end, and accepting an expired quote answers with a new one to accept again.
 */
export const quoteQuery = (from: ConvertCoin, to: ConvertCoin, amountMinor: bigint | null, enabled: boolean) =>
  queryOptions({
    queryKey: convertKeys.quote(from, to, amountMinor),
    queryFn: async () => holdQuote(await requestQuote(from, to, amountMinor ?? 0n)),
    enabled: enabled && amountMinor !== null && amountMinor > 0n && from !== to,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });

/** Accepts a quote; a conversion made refreshes balances and history (every 'convert' query). */
export function useAcceptQuoteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptQuote,
    onSuccess: async (result) => {
      if (result.outcome === 'converted') await queryClient.invalidateQueries({ queryKey: convertKeys.all });
    },
  });
}
