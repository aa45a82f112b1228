import { type Catalogue, catalogueQuery, networkLabel } from '@cw/shared-state/catalogue';
import { type CoinDisplay, coinDisplay } from '@cw/shared-state/money';
import { useQuery } from '@tanstack/react-query';
import type { CoinCode, ExchangePairs, NetworkCode } from '../api/exchange-api.ts';
import { pairsQuery } from '../api/exchange-queries.ts';

export interface CataloguePairs {
  catalogue: Catalogue;
  sendCoins: CoinCode[];
  receiveCoins: CoinCode[];
  sendNetworks(coin: string): NetworkCode[];
  receiveNetworks(coin: string): NetworkCode[];
  decimalsOf(coin: string): number;
  /** How the coin's amounts are shown (display precision from the catalogue). */
  displayOf(coin: string): CoinDisplay;
  /** The network's name; with the token standard when `coin` is a token on it (not for its native coin). */
  networkLabel(network: string, coin?: string): string;
}

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
    displayOf: (coin) => coinDisplay(coin, catalogue.coins),
    networkLabel: (network, coin) =>
      networkLabel(
        catalogue.networks.find((x) => x.code === network),
        network,
        coin,
      ),
  };
}

/** Which coins and networks an order can be paid in and paid out to. */
export function useCataloguePairs() {
  const catalogue = useQuery(catalogueQuery);
  const pairs = useQuery(pairsQuery);
  return {
    pairs: catalogue.data && pairs.data ? view(catalogue.data, pairs.data) : null,
    isError: catalogue.isError || pairs.isError,
    refetch: () => Promise.all([catalogue.refetch(), pairs.refetch()]),
  };
}
