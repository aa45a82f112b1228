import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AddressBookInput,
  deleteAddressBookEntry,
  fetchAddressBook,
  setAddressBookEntryTrusted,
} from './address-book.ts';

export const ADDRESS_BOOK_KEY = ['wallet', 'address-book'] as const;

/** The user's saved addresses (kept on the server, so they follow the user across devices). */
export function useAddressBook(enabled = true) {
  return useQuery({ queryKey: ADDRESS_BOOK_KEY, queryFn: fetchAddressBook, enabled });
}

function useRefreshAddressBook() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ADDRESS_BOOK_KEY });
}

/** Adds or replaces an entry (`save` says which); the list is read again after. */
export function useSaveAddressMutation(save: (entry: AddressBookInput) => Promise<unknown>) {
  const refresh = useRefreshAddressBook();
  return useMutation({ mutationFn: save, onSuccess: refresh });
}

export function useDeleteAddressMutation() {
  const refresh = useRefreshAddressBook();
  return useMutation({ mutationFn: deleteAddressBookEntry, onSuccess: refresh });
}

export function useTrustAddressMutation() {
  const refresh = useRefreshAddressBook();
  return useMutation({
    mutationFn: ({ id, trusted }: { id: string; trusted: boolean }) => setAddressBookEntryTrusted(id, trusted),
    onSuccess: refresh,
  });
}
