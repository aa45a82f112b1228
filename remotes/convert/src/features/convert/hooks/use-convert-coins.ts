import { type Catalogue, catalogueQuery } from '@cw/shared-state/catalogue';
import { useQuery } from '@tanstack/react-query';
import type { ConvertCoinInfo } from '../utils/coins.ts';

const toConvertCoins = (catalogue: Catalogue): ConvertCoinInfo[] =>
  catalogue.coins.map(({ code, decimals, displayDecimals, displayDecimalsAtOne }) => ({
    code,
    decimals,
    displayDecimals,
    displayDecimalsAtOne,
  }));

/** The coins one can convert with their decimals, from the shared catalogue query; undefined while it loads. */
export function useConvertCoins() {
  const query = useQuery({ ...catalogueQuery, select: toConvertCoins });
  return { coins: query.data, isError: query.isError, refetch: query.refetch };
}
