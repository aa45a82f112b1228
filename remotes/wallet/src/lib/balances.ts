import { api, pollWithBackoff, unwrap } from '@cw/shared-state/api';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

/** The signed-in user's balances: the hub lists them, the send form checks against them. */
export function fetchBalances() {
  return unwrap(api.GET('/api/me/balances'));
}

export type Balance = Awaited<ReturnType<typeof fetchBalances>>[number];

export const BALANCES_KEY = ['wallet', 'balances'] as const;

/**
 * The signed-in user's balances, per coin, in minor units. An open screen follows them by itself (a
 * deposit credited, a withdrawal paid): polled with backoff while nothing changes.
 */
export function useBalances(enabled = true) {
  const [refetchInterval] = useState(() => pollWithBackoff());
  return useQuery({ queryKey: BALANCES_KEY, queryFn: fetchBalances, enabled, refetchInterval });
}

/** Available minor units of one coin (0 when unknown). */
export function useAvailable(coin: string): bigint {
  const { data } = useBalances();
  const row = data?.find((balance) => balance.asset === coin);
  return row ? BigInt(row.availableMinor) : 0n;
}
