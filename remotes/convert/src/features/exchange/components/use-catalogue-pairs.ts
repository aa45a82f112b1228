import { useQuery } from '@tanstack/react-query';
import {
  type Catalogue,
  type CoinCode,
  type ExchangePairs,
  fetchCatalogue,
  fetchPairs,
  type NetworkCode,
} from '../api/exchange-api.ts';

export interface CataloguePairs {
  catalogue: Catalogue;
  sendCoins: CoinCode[];
  receiveCoins: CoinCode[];
  sendNetworks(coin: string): NetworkCode[];
  receiveNetworks(coin: string): NetworkCode[];
  decimalsOf(coin: string): number;
  /** The network's name; with the token standard when `coin` is a token on it (not for its native coin). */
  networkLabel(network: string, coin?: string): string;
}

/** Proper names of the networks (the same in every language). */
const NETWORK_NAMES: Record<string, string> = {
  ethereum: 'Ethereum',
  bsc: 'BNB Smart Chain',
  tron: 'TRON',
  bitcoin: 'Bitcoin',
  dogecoin: 'Dogecoin',
};

/** Coins and networks from GET /api/exchange/pairs (what the server can serve now); labels and decimals from the catalogue. */
function view(catalogue: Catalogue, pairs: ExchangePairs): CataloguePairs {
  const unique = <T>(values: T[]) => [...new Set(values)];
  const deposit = pairs.send;
  const withdraw = pairs.receive;
  return {
    catalogue,
    sendCoins: unique(deposit.map((p) => p.coin)),
    receiveCoins: unique(withdraw.map((p) => p.coin)),
    sendNetworks: (coin) => deposit.filter((p) => p.coin === coin).map((p) => p.network),
    receiveNetworks: (coin) => withdraw.filter((p) => p.coin === coin).map((p) => p.network),
    decimalsOf: (coin) => catalogue.coins.find((c) => c.code === coin)?.decimals ?? 0,
    networkLabel: (network, coin) => {
      const n = catalogue.networks.find((x) => x.code === network);
      const name = NETWORK_NAMES[network] ?? network;
      // ETH on Ethereum and BNB on BNB Smart Chain are plain transfers, not ERC-20/BEP-20 tokens.
      const token = n?.tokenStandard && coin !== n.nativeCoin;
      return token ? `${name} (${n.tokenStandard})` : name;
    },
  };
}

/** Which coins and networks an order can be paid in and paid out to. */
export function useCataloguePairs() {
  const catalogue = useQuery({ queryKey: ['catalogue'], queryFn: fetchCatalogue, staleTime: 5 * 60_000 });
  const pairs = useQuery({ queryKey: ['exchange', 'pairs'], queryFn: fetchPairs, staleTime: 60_000 });
  return {
    pairs: catalogue.data && pairs.data ? view(catalogue.data, pairs.data) : null,
    isError: catalogue.isError || pairs.isError,
    refetch: () => Promise.all([catalogue.refetch(), pairs.refetch()]),
  };
}
