import { type NetworkLabelInput, networkLabel } from '@cw/shared-state/catalogue';
import { type CoinDisplay, coinDisplay } from '@cw/shared-state/money';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type Catalogue, type CataloguePair, fetchCatalogue } from '../api/catalogue.ts';

export interface CatalogueView {
  catalogue: Catalogue;
  decimalsOf: (coin: string) => number;
  /** How the coin's amounts are shown: its display precision from the catalogue. */
  displayOf: (coin: string) => CoinDisplay;
  pair: (coin: string, network: string) => CataloguePair | undefined;
  /** The network's name, with the token standard when `coin` is a token on it (not for its native coin). */
  networkLabel: (network: string, coin?: string) => string;
}

/** Build the lookups once per catalogue (it changes only with a deployment). */
export function catalogueView(catalogue: Catalogue): CatalogueView {
  const decimals = new Map<string, number>(catalogue.coins.map((coin) => [coin.code, coin.decimals]));
  const networks = new Map<string, NetworkLabelInput>(catalogue.networks.map((network) => [network.code, network]));
  return {
    catalogue,
    decimalsOf: (coin) => decimals.get(coin) ?? 0,
    // Full precision for a catalogue without display rules (an older server): never a NaN.
    displayOf: (coin) => coinDisplay(coin, catalogue.coins),
    pair: (coin, network) => catalogue.pairs.find((p) => p.coin === coin && p.network === network),
    networkLabel: (network, coin) => networkLabel(networks.get(network), network, coin),
  };
}

/** The coin catalogue (coins, networks, limits), cached for the session. */
export function useCatalogue(enabled = true) {
  const query = useQuery({
    queryKey: ['wallet', 'catalogue'],
    queryFn: fetchCatalogue,
    staleTime: 10 * 60_000,
    enabled,
  });
  const view = useMemo(() => (query.data ? catalogueView(query.data) : undefined), [query.data]);
  return { ...query, view };
}
