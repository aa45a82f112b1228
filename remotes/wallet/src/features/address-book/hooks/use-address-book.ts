import { useQuery } from '@tanstack/react-query';
import { fetchAddressBook } from '../api/address-book.ts';

export const ADDRESS_BOOK_KEY = ['wallet', 'address-book'] as const;

/** The user's saved addresses (kept on the server, so they follow the user across devices). */
export function useAddressBook(enabled = true) {
  return useQuery({ queryKey: ADDRESS_BOOK_KEY, queryFn: fetchAddressBook, enabled });
}
