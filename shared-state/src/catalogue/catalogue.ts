import { api, unwrap } from '@cw/shared-state/api';
import { type CoinDisplay, coinDisplay } from '@cw/shared-state/money';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type NetworkLabelInput, networkLabel } from './network-label.ts';

export function fetchCatalogue() {
  return unwrap(api.GET('/api/catalogue'));
}

export type Catalogue = Awaited<ReturnType<typeof fetchCatalogue>>;
export type CataloguePair = Catalogue['pairs'][number];
export type CatalogueCoin = Catalogue['coins'][number];
export type CoinCode = CatalogueCoin['code'];
export type NetworkCode = Catalogue['networks'][number]['code'];

/**
 * Screens keep coin and network choices as plain strings (from the URL or a chip); they always come
 * from the catalogue, so they are its codes.
 */
export const asCoin = (coin: string) => coin as CoinCode;
export const asNetwork = (network: string) => network as NetworkCode;

/** The one query of GET /api/catalogue for every app: it changes only with a deployment. */
export const catalogueQuery = queryOptions({
  queryKey: ['catalogue'] as const,
  queryFn: fetchCatalogue,
  staleTime: 10 * 60_000,
});

export interface CatalogueView {
  catalogue: Catalogue;
  decimalsOf: (coin: string) => number;
  /** How the coin's amounts are shown: its display precision from the catalogue. */
  displayOf: (coin: string) => CoinDisplay;
  pair: (coin: string, network: string) => CataloguePair | undefined;
  /** The network's name, with the token standard when `coin` is a token on it (not for its native coin). */
  networkLabel: (network: string, coin?: string) => string;
}

/** Build the lookups once per catalogue. */
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

/** The coin catalogue (coins, networks, limits) with its lookups; `view` is undefined while it loads. */
export function useCatalogue(enabled = true) {
  const query = useQuery({ ...catalogueQuery, enabled });
  const view = useMemo(() => (query.data ? catalogueView(query.data) : undefined), [query.data]);
  return { ...query, view };
}
