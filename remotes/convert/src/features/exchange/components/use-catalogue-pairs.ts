import { useQuery } from '@tanstack/react-query';
import { type Catalogue, type CoinCode, fetchCatalogue, type NetworkCode } from '../api/exchange-api.ts';

export interface CataloguePairs {
  catalogue: Catalogue;
  sendCoins: CoinCode[];
  receiveCoins: CoinCode[];
  sendNetworks(coin: string): NetworkCode[];
  receiveNetworks(coin: string): NetworkCode[];
  decimalsOf(coin: string): number;
  networkLabel(network: string): string;
}

/** Proper names of the networks (the same in every language). */
const NETWORK_NAMES: Record<string, string> = {
  ethereum: 'Ethereum',
  bsc: 'BNB Smart Chain',
  tron: 'TRON',
  bitcoin: 'Bitcoin',
  dogecoin: 'Dogecoin',
};

function view(catalogue: Catalogue): CataloguePairs {
  const unique = <T>(values: T[]) => [...new Set(values)];
  const deposit = catalogue.pairs.filter((p) => p.depositEnabled);
  const withdraw = catalogue.pairs.filter((p) => p.withdrawEnabled);
  return {
    catalogue,
    sendCoins: unique(deposit.map((p) => p.coin)),
    receiveCoins: unique(withdraw.map((p) => p.coin)),
    sendNetworks: (coin) => deposit.filter((p) => p.coin === coin).map((p) => p.network),
    receiveNetworks: (coin) => withdraw.filter((p) => p.coin === coin).map((p) => p.network),
    decimalsOf: (coin) => catalogue.coins.find((c) => c.code === coin)?.decimals ?? 0,
    networkLabel: (network) => {
      const n = catalogue.networks.find((x) => x.code === network);
      const name = NETWORK_NAMES[network] ?? network;
      return n?.tokenStandard ? `${name} (${n.tokenStandard})` : name;
    },
  };
}

/** Which coins and networks can be sent (deposit enabled) and received (withdraw enabled). */
export function useCataloguePairs() {
  const query = useQuery({ queryKey: ['catalogue'], queryFn: fetchCatalogue, staleTime: 5 * 60_000 });
  return { pairs: query.data ? view(query.data) : null, isError: query.isError, refetch: query.refetch };
}
