import { apiCall } from '../../../lib/api-call.ts';

export type HistoryType = 'deposit' | 'withdrawal' | 'send';

export interface HistoryItem {
  type: HistoryType;
  id: string;
  coin: string;
  network?: string | null;
  amountMinor: string;
  /** Deposit, withdrawal or send state (a send is final at once). */
  state: string;
  /** Sends: 'out' for one this user made, 'in' for one received. */
  direction?: 'in' | 'out' | null;
  createdAt: string;
}

export interface HistoryPage {
  items: HistoryItem[];
  nextCursor: string | null;
}

export interface HistoryFilters {
  type?: HistoryType;
  coin?: string;
  /** ISO instants, inclusive. */
  from?: string;
  to?: string;
}

export const HISTORY_PAGE_SIZE = 20;

export function fetchHistory(filters: HistoryFilters, cursor?: string): Promise<HistoryPage> {
  return apiCall('GET', '/api/wallet/history', { query: { ...filters, cursor, limit: HISTORY_PAGE_SIZE } });
}
