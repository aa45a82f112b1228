import { api, unwrap } from '@cw/shared-state/api';
import { useUserId } from '@cw/shared-state/session';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export function fetchSignStatus() {
  return unwrap(api.GET('/api/rewards/sign'));
}
export type SignStatus = Awaited<ReturnType<typeof fetchSignStatus>>;
export type SignRecord = SignStatus['records'][number];
export type ClaimRecord = SignStatus['claims'][number];

/** Prefix of the sign status; the user id follows it (the memberTag is the user's own: issue 40). */
const signKey = ['rewards', 'sign'] as const;
/** While a check-in waits for its confirmations, the screen asks this often (the record appears live). */
const SIGNING_POLL_MS = 1_000;

export function useSignStatus(waitingForTx: string | null) {
  const userId = useUserId();
  return useQuery({
    queryKey: [...signKey, userId],
    queryFn: fetchSignStatus,
    enabled: userId !== '',
    refetchInterval: (query) => {
      const data = query.state.data;
      if (waitingForTx !== null) return SIGNING_POLL_MS;
      return data?.todayState === 'seen' ? SIGNING_POLL_MS : false;
    },
  });
}

/**
 * The check-in a claim names: the newest confirmed one made from the connected wallet. The server
 * takes the claim's address from that record, so nothing here can name another wallet, and the
 * wallet is never asked to sign anything (issue 36 item 13).
 */
export function claimRecordFor(records: readonly SignRecord[], wallet: string): SignRecord | undefined {
  const lower = wallet.toLowerCase();
  return records.find((r) => r.state === 'confirmed' && r.address.toLowerCase() === lower);
}

export function useClaimMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (signRecordId: string) => unwrap(api.POST('/api/rewards/claims', { body: { signRecordId } })),
    onSuccess: () => client.invalidateQueries({ queryKey: signKey }),
  });
}

export function useDeliverMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/rewards/deliveries')),
    onSuccess: () => client.invalidateQueries({ queryKey: signKey }),
  });
}
