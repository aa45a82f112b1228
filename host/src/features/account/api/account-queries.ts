import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { changePassword, listSessions, revokeOtherSessions, revokeSession } from './account-api.ts';

/**
 * The signed-in account's queries and mutations (react-query: loaded with the signed-in screens,
 * never on the landing page, whose screens call account-api.ts directly).
 */
export const accountKeys = { sessions: ['me', 'sessions'] as const };

/** The user's live sessions (signed-in devices). */
export const useSessions = () => useQuery({ queryKey: accountKeys.sessions, queryFn: listSessions });

function useRefreshSessions() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions });
}

export function useRevokeOthersMutation() {
  const refresh = useRefreshSessions();
  return useMutation({ mutationFn: revokeOtherSessions, onSettled: refresh });
}

export function useRevokeSessionMutation() {
  const refresh = useRefreshSessions();
  return useMutation({ mutationFn: revokeSession, onSettled: refresh });
}

/** Changing the password ends the other sessions: the list is fetched again. */
export function useChangePasswordMutation() {
  const refresh = useRefreshSessions();
  return useMutation({ mutationFn: changePassword, onSuccess: refresh });
}
