import { pollWithBackoff } from '@cw/shared-state/api';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchHistory, type HistoryFilters } from './history.ts';

export const historyKey = (filters: HistoryFilters) => ['wallet', 'history', filters] as const;

/**
 * The user's deposits, withdrawals and sends, newest first, a page at a time. New deposits and
 * withdrawal state changes show up while the screen is open (polled with backoff).
 */
export function useWalletHistory(filters: HistoryFilters, enabled: boolean) {
  const [refetchInterval] = useState(() => pollWithBackoff());
  return useInfiniteQuery({
    queryKey: historyKey(filters),
    queryFn: ({ pageParam }) => fetchHistory(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
    refetchInterval,
  });
}
