import { useUserId } from '@cw/shared-state/session';
import { useMutation, useQuery } from '@tanstack/react-query';
import { confirmTransferred, fetchDeposit, fetchDepositAddress } from './deposit.ts';

export const depositKeys = {
  /** The user is part of the key: a cached address is never shown to another account (issue 40). */
  address: (userId: string, coin: string, network: string) =>
    ['wallet', 'deposit-address', userId, coin, network] as const,
  deposit: (id: string) => ['wallet', 'deposit', id] as const,
};

/** A confirming deposit's detail is re-read this often until it is credited or failed. */
export const DEPOSIT_POLL_MS = 3000;

/** The user's deposit address on a network; it never changes for that user, so it is asked once. */
export const useDepositAddress = (coin: string, network: string, live: boolean) => {
  const userId = useUserId();
  return useQuery({
    queryKey: depositKeys.address(userId, coin, network),
    queryFn: () => fetchDepositAddress(coin, network),
    enabled: Boolean(userId && coin && network && live),
    staleTime: Number.POSITIVE_INFINITY,
  });
};

export const useDeposit = (id: string) =>
  useQuery({
    queryKey: depositKeys.deposit(id),
    queryFn: () => fetchDeposit(id),
    enabled: id !== '',
    refetchInterval: (query) => (query.state.data?.state === 'confirming' ? DEPOSIT_POLL_MS : false),
  });

/** "I have transferred" (limited per day: DEPOSIT_CONFIRM_LIMIT). */
export const useConfirmTransferredMutation = () =>
  useMutation({
    mutationFn: ({ coin, network }: { coin: string; network: string }) => confirmTransferred(coin, network),
  });
