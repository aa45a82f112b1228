import { apiCall } from '../../../lib/api-call.ts';

export interface AddressBookEntry {
  id: string;
  name: string;
  walletType: string;
  network: string;
  address: string;
  remark: string | null;
  createdAt?: string;
}

export type NewAddressBookEntry = Omit<AddressBookEntry, 'id' | 'createdAt'>;

/** Wallet types a user files an address under. */
export const WALLET_TYPES = ['personal', 'exchange', 'other'] as const;

export async function fetchAddressBook(): Promise<AddressBookEntry[]> {
  const data = await apiCall<AddressBookEntry[] | { entries: AddressBookEntry[] }>('GET', '/api/wallet/address-book');
  return Array.isArray(data) ? data : data.entries;
}

export function addAddressBookEntry(entry: NewAddressBookEntry): Promise<AddressBookEntry> {
  return apiCall('POST', '/api/wallet/address-book', { body: entry });
}

export function deleteAddressBookEntry(id: string): Promise<unknown> {
  return apiCall('DELETE', `/api/wallet/address-book/${encodeURIComponent(id)}`);
}
