import { useQuery } from '@tanstack/react-query';
import { useDebounced } from '../../../lib/use-debounced.ts';
import { quoteQuery } from '../api/convert-queries.ts';
import type { ConvertCoin } from '../utils/coins.ts';

const TYPING_SETTLE_MS = 400;

/**
 * The quote for (from, to, amount), asked once per input (typing is debounced). It is not
 * refreshed by itself when it expires: the user sees the countdown end, and accepting an expired
 * quote brings the "rate expired and updated" dialog with the new one.
 */
export function useQuote(from: ConvertCoin, to: ConvertCoin, amountMinor: bigint | null, enabled: boolean) {
  const amount = useDebounced(amountMinor, TYPING_SETTLE_MS);
  return useQuery(quoteQuery(from, to, amount, enabled));
}
