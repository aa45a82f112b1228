import { api, unwrap } from '@cw/shared-state/api';
import { asCoin } from '@cw/shared-state/catalogue';

export type HistoryType = 'deposit' | 'withdrawal' | 'send';

export interface HistoryFilters {
  type?: HistoryType;
  coin?: string;
  /** ISO instants, inclusive. */
  from?: string;
  to?: string;
}

export const HISTORY_PAGE_SIZE = 20;

export function fetchHistory(filters: HistoryFilters, cursor?: string) {
  const { coin, ...rest } = filters;
  return unwrap(
    api.GET('/api/wallet/history', {
      params: {
        query: { ...rest, ...(coin ? { coin: asCoin(coin) } : {}), cursor, limit: HISTORY_PAGE_SIZE },
      },
    }),
  );
}

export type HistoryPage = Awaited<ReturnType<typeof fetchHistory>>;
export type HistoryItem = HistoryPage['items'][number];
