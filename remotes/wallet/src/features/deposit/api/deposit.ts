import { api, unwrap } from '@cw/shared-state/api';
import { asCoin, asNetwork } from '@cw/shared-state/catalogue';

export function fetchDepositAddress(coin: string, network: string) {
  return unwrap(
    api.GET('/api/wallet/deposit-address', { params: { query: { coin: asCoin(coin), network: asNetwork(network) } } }),
  );
}

export function fetchDeposit(id: string) {
  return unwrap(api.GET('/api/wallet/deposits/{id}', { params: { path: { id } } }));
}

/** "I have transferred": refused with DEPOSIT_CONFIRM_LIMIT after 3 unmatched clicks a day. */
export function confirmTransferred(coin: string, network: string) {
  return unwrap(
    api.POST('/api/wallet/deposits/confirm-click', { body: { coin: asCoin(coin), network: asNetwork(network) } }),
  );
}

export type DepositDetail = Awaited<ReturnType<typeof fetchDeposit>>;
export type DepositState = DepositDetail['state'];
export type DepositAddress = Awaited<ReturnType<typeof fetchDepositAddress>>;
