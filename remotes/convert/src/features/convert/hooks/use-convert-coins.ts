import { useQuery } from '@tanstack/react-query';
import { fetchCatalogue } from '../api/catalogue.ts';
import type { ConvertCoinInfo } from '../lib/coins.ts';

/** The coins one can convert with their decimals, from the server catalogue; undefined while it loads. */
export function useConvertCoins() {
  const query = useQuery({
    queryKey: ['convert', 'catalogue'],
    queryFn: fetchCatalogue,
    // The catalogue changes only with a deployment.
    staleTime: 10 * 60_000,
    select: (catalogue): ConvertCoinInfo[] =>
      catalogue.coins.map(({ code, decimals, displayDecimals, displayDecimalsAtOne }) => ({
        code,
        decimals,
        displayDecimals,
        displayDecimalsAtOne,
      })),
  });
  return { coins: query.data, isError: query.isError, refetch: query.refetch };
}
