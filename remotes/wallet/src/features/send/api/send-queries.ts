import { api, unwrap } from '@cw/shared-state/api';
import type { PasskeyAnswer } from '@cw/shared-state/passkeys';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSendFlow } from '../stores/send-flow.ts';
import { checkRecipient, fetchSend, fetchWithdrawal, verifyFundPassword, type WithdrawalState } from './send.ts';

/** Every query key of the send screens; all under 'wallet', so a placed order refreshes balances too. */
export const sendKeys = {
  wallet: ['wallet'] as const,
  withdrawal: (id: string) => ['wallet', 'withdrawal', id] as const,
  send: (id: string) => ['wallet', 'send', id] as const,
  recipient: (kind: string, recipient: string) => ['wallet', 'recipient', kind, recipient] as const,
};

/** A withdrawal moves until it reaches one of these; until then its detail screen re-reads it. */
const FINAL_STATES: ReadonlySet<WithdrawalState> = new Set([
  'review_rejected',
  'transfer_successful',
  'transfer_failed',
]);
export const WITHDRAWAL_POLL_MS = 4_000;

export const withdrawalQuery = (id: string, enabled: boolean) =>
  queryOptions({
    queryKey: sendKeys.withdrawal(id),
    queryFn: () => fetchWithdrawal(id),
    enabled: enabled && id !== '',
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state && FINAL_STATES.has(state) ? false : WITHDRAWAL_POLL_MS;
    },
  });

export const useWithdrawal = (id: string, enabled: boolean) => useQuery(withdrawalQuery(id, enabled));

/** A transfer to another user is final at once: read once. */
export const useSendRecord = (id: string, enabled: boolean) =>
  useQuery({ queryKey: sendKeys.send(id), queryFn: () => fetchSend(id), enabled: enabled && id !== '' });

/** Checks the fund password (the server counts wrong tries and locks). */
export const useVerifyFundPasswordMutation = () => useMutation({ mutationFn: verifyFundPassword });

/** Sets or changes the fund password with a fund_password e-mail code. */
export const useSetFundPasswordMutation = () =>
  useMutation({
    mutationFn: (body: { code: string; fundPassword: string; confirmFundPassword: string }) =>
      unwrap(api.POST('/api/me/fund-password', { body })),
  });

/**
 * The flow's last step: places the drafted order; balances, history and records then refresh.
 * `onPlaced` runs even when the screen has already moved on to the order's detail.
 */
export function usePlaceOrderMutation(onPlaced: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { emailCode: string; factorCode: string; passkey?: PasskeyAnswer }) =>
      useSendFlow.getState().place(input.emailCode, input.factorCode, input.passkey),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: sendKeys.wallet });
      onPlaced();
    },
  });
}

/** Who a transfer would go to (found, not the sender); nothing is e-mailed. */
export const recipientQuery = (kind: 'email' | 'address', recipient: string, enabled: boolean) =>
  queryOptions({
    queryKey: sendKeys.recipient(kind, recipient),
    queryFn: () => checkRecipient(kind, recipient),
    enabled: enabled && recipient !== '',
    retry: false,
    staleTime: 60_000,
  });
