import { useQuery } from '@tanstack/react-query';
import { type PairAmount, type RateType, requestRate } from '../api/exchange-api.ts';

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
export function useExchangeEstimate(key: PairAmount | null, rateType: RateType) {
  return useQuery({
    queryKey: ['exchange', 'estimate', rateType, key],
    queryFn: () => requestRate({ ...(key as PairAmount), rateType }),
    enabled: key !== null,
    retry: false,
    staleTime: rateType === 'fixed' ? Number.POSITIVE_INFINITY : 0,
    refetchInterval: (query) => {
      const expiresAt = query.state.data?.expiresAt;
      if (rateType === 'float' || !expiresAt) return FLOAT_REFRESH_MS;
      return Math.max(MIN_REFRESH_MS, new Date(expiresAt).getTime() - Date.now() - FIXED_MARGIN_MS);
    },
  });
}
