import { api, unwrap } from '@cw/shared-state/api';
import { asNetwork } from '@cw/shared-state/catalogue';

/** Wallet types a user files an address under (the server's list). */
export const WALLET_TYPES = ['personal', 'exchange', 'other'] as const;
export type WalletType = (typeof WALLET_TYPES)[number];

export async function fetchAddressBook() {
  return (await unwrap(api.GET('/api/wallet/address-book'))).entries;
}

export type AddressBookEntry = Awaited<ReturnType<typeof fetchAddressBook>>[number];

/** One entry as the forms send it (the server checks the address for the network again). */
export interface AddressBookInput {
  name: string;
  walletType: string;
  network: string;
  address: string;
  remark: string | null;
}

function toBody(entry: AddressBookInput) {
  const walletType = WALLET_TYPES.find((type) => type === entry.walletType) ?? 'other';
  return { ...entry, walletType, network: asNetwork(entry.network) };
}

export function addAddressBookEntry(entry: AddressBookInput) {
  return unwrap(api.POST('/api/wallet/address-book', { body: toBody(entry) }));
}

/** Replaces the saved entry `id` with `entry`. */
export function updateAddressBookEntry(id: string, entry: AddressBookInput) {
  return unwrap(api.PUT('/api/wallet/address-book/{id}', { params: { path: { id } }, body: toBody(entry) }));
}

export function deleteAddressBookEntry(id: string) {
  return unwrap(api.DELETE('/api/wallet/address-book/{id}', { params: { path: { id } } }));
}

/** Marks an entry trusted for the withdrawal allowlist (usable after the hold) or not (at once). */
export function setAddressBookEntryTrusted(id: string, trusted: boolean) {
  return unwrap(api.PUT('/api/wallet/address-book/{id}/trusted', { params: { path: { id } }, body: { trusted } }));
}
