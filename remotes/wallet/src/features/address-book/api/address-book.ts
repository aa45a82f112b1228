import { api, unwrap } from '@cw/shared-state/api';
import { asNetwork } from '../../catalogue/api/catalogue.ts';

/** Wallet types a user files an address under (the server's list). */
export const WALLET_TYPES = ['personal', 'exchange', 'other'] as const;
export type WalletType = (typeof WALLET_TYPES)[number];

export async function fetchAddressBook() {
  return (await unwrap(api.GET('/api/wallet/address-book'))).entries;
}

export type AddressBookEntry = Awaited<ReturnType<typeof fetchAddressBook>>[number];

export function addAddressBookEntry(entry: {
  name: string;
  walletType: string;
  network: string;
  address: string;
  remark: string | null;
}) {
  const walletType = WALLET_TYPES.find((type) => type === entry.walletType) ?? 'other';
  return unwrap(
    api.POST('/api/wallet/address-book', { body: { ...entry, walletType, network: asNetwork(entry.network) } }),
  );
}

export function deleteAddressBookEntry(id: string) {
  return unwrap(api.DELETE('/api/wallet/address-book/{id}', { params: { path: { id } } }));
}
