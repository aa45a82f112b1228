import { api, type paths, queryClient, unwrap } from '@cw/shared-state/api';
import { useSession } from '@cw/shared-state/session';
import { useQuery } from '@tanstack/react-query';

export type SecurityLocks = paths['/api/me/security/locks']['get']['responses'][200]['content']['application/json'];
export type SecurityLock = SecurityLocks['locks'][number];

/** Locks change on security events (rare): read once a minute, and again after any security change. */
export const LOCKS_REFRESH_MS = 60_000;
export const outflowLocksQueryKey = ['me', 'security', 'locks'] as const;

export async function fetchOutflowLocks(): Promise<SecurityLock[]> {
  return (await unwrap(api.GET('/api/me/security/locks'))).locks;
}

/**
 * What keeps coins in the signed-in account now (GET /api/me/security/locks), for the banner on the
 * withdraw and send screens and security settings. Uses the shared query client, so the host and
 * every remote read the same answer; after a security change call `refreshOutflowLocks()`.
 */
export function useOutflowLocks() {
  const signedIn = useSession((state) => state.me !== null);
  return useQuery(
    {
      queryKey: outflowLocksQueryKey,
      queryFn: fetchOutflowLocks,
      enabled: signedIn,
      refetchInterval: LOCKS_REFRESH_MS,
      staleTime: LOCKS_REFRESH_MS / 2,
    },
    queryClient,
  );
}

export function refreshOutflowLocks(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: outflowLocksQueryKey });
}
