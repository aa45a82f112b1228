import { useSession } from '@cw/shared-state/session';
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

/**
 * Logs out; nothing of the account stays cached for whoever signs in next on this device.
 * `onLoggedOut` runs after the cache is cleared.
 */
export function useLogoutMutation(onLoggedOut: () => void, onFailed: (error: unknown) => void) {
  const queryClient = useQueryClient();
  const logout = useSession((state) => state.logout);
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      queryClient.clear();
      onLoggedOut();
    },
    onError: onFailed,
  });
}
