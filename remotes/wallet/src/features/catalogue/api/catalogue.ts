import { apiCall } from '../../../lib/api-call.ts';

export interface CatalogueCoin {
  code: string;
  /** Decimals of the ledger's minor unit. */
  decimals: number;
}

export interface CatalogueNetwork {
  code: string;
  /** e.g. "ERC-20"; null for a UTXO chain. */
  tokenStandard: string | null;
  nativeCoin: string;
}

/** One (coin, network) pair; amounts are decimal strings of the coin's minor units. */
export interface CataloguePair {
  coin: string;
  network: string;
  minDepositMinor: string;
  confirmations: number;
  expectedArrivalMinutes: number;
  withdrawMinMinor: string;
  withdrawMaxMinor: string;
  withdrawFeeMinor: string;
  depositEnabled: boolean;
  withdrawEnabled: boolean;
}

export interface Catalogue {
  coins: CatalogueCoin[];
  networks: CatalogueNetwork[];
  pairs: CataloguePair[];
}

export function fetchCatalogue(): Promise<Catalogue> {
  return apiCall<Catalogue>('GET', '/api/catalogue');
}
