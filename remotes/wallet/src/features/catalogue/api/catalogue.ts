import { api, unwrap } from '@cw/shared-state/api';

export function fetchCatalogue() {
  return unwrap(api.GET('/api/catalogue'));
}

export type Catalogue = Awaited<ReturnType<typeof fetchCatalogue>>;
export type CataloguePair = Catalogue['pairs'][number];
export type CoinCode = Catalogue['coins'][number]['code'];
export type NetworkCode = Catalogue['networks'][number]['code'];

/**
 * Screens keep coin and network choices as plain strings (from the URL or a
 * chip); they always come from the catalogue, so they are its codes.
 */
export const asCoin = (coin: string) => coin as CoinCode;
export const asNetwork = (network: string) => network as NetworkCode;
