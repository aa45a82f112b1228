import { useQuery } from '@tanstack/react-query';
import { fetchBalances } from '../api/balances.ts';

export const BALANCES_KEY = ['wallet', 'balances'] as const;

/** The signed-in user's balances, per coin, in minor units. */
export function useBalances(enabled = true) {
  return useQuery({ queryKey: BALANCES_KEY, queryFn: fetchBalances, enabled });
}

/** Available minor units of one coin (0 when unknown). */
export function useAvailable(coin: string): bigint {
  const { data } = useBalances();
  const row = data?.find((balance) => balance.asset === coin);
  return row ? BigInt(row.availableMinor) : 0n;
}
