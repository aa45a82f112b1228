import { api, unwrap } from '@cw/shared-state/api';
import type { ConvertCoin } from '../utils/coins.ts';

export interface Quote {
  quoteId: string;
  from: ConvertCoin;
  to: ConvertCoin;
  amountMinor: string;
  rate: string;
  feeMinor: string;
  receiveMinor: string;
  minMinor: string;
  maxMinor: string;
  source: 'sandbox' | 'live';
  createdAt: string;
  expiresAt: string;
}

export interface Conversion {
  id: string;
  quoteId: string;
  from: ConvertCoin;
  to: ConvertCoin;
  amountMinor: string;
  feeMinor: string;
  receiveMinor: string;
  rate: string;
  status: 'completed';
  createdAt: string;
}

export type AcceptResult = { outcome: 'converted'; conversion: Conversion } | { outcome: 'requoted'; quote: Quote };

export interface HistoryPage {
  items: Conversion[];
  nextCursor: string | null;
}

export async function requestQuote(from: ConvertCoin, to: ConvertCoin, amountMinor: bigint): Promise<Quote> {
  const body = { from, to, amountMinor: amountMinor.toString() };
  return (await unwrap(api.POST('/api/convert/quotes', { body }))) as Quote;
}

export async function acceptQuote(quoteId: string): Promise<AcceptResult> {
  return (await unwrap(
    api.POST('/api/convert/quotes/{id}/accept', { params: { path: { id: quoteId } } }),
  )) as AcceptResult;
}

export async function fetchConversion(id: string): Promise<Conversion> {
  return (await unwrap(api.GET('/api/convert/conversions/{id}', { params: { path: { id } } }))) as Conversion;
}

export async function fetchHistory(
  pair: { from?: ConvertCoin; to?: ConvertCoin },
  cursor: string | undefined,
): Promise<HistoryPage> {
  const query = { limit: 20, ...(cursor ? { cursor } : {}), ...pair };
  return (await unwrap(api.GET('/api/convert/history', { params: { query } }))) as HistoryPage;
}

/** Available balance per coin, in minor units. */
export async function fetchBalances(): Promise<Map<string, bigint>> {
  const rows = await unwrap(api.GET('/api/me/balances'));
  return new Map(rows.map((b) => [b.asset, BigInt(b.availableMinor)]));
}
