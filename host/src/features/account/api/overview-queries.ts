import { api, queryClient, unwrap } from '@cw/shared-state/api';
import { refreshOutflowLocks } from '@cw/shared-state/security';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { loginHistory } from './security-api.ts';

/** Issue 31, visibility: the security overview and the login history (react-query). */
export const securityKeys = {
  overview: ['me', 'security', 'overview'] as const,
  logins: ['me', 'security', 'logins'] as const,
};

export async function securityOverview() {
  return unwrap(api.GET('/api/me/security/overview'));
}

export type SecurityOverviewData = Awaited<ReturnType<typeof securityOverview>>;

export const useSecurityOverview = () => useQuery({ queryKey: securityKeys.overview, queryFn: securityOverview });

/** The login history, 20 at a time, older pages on demand (the server keeps 90 days). */
export const useLoginHistory = () =>
  useInfiniteQuery({
    queryKey: securityKeys.logins,
    queryFn: ({ pageParam }) => loginHistory(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
  });

/** After a security change: the overview and the lock banner (shared with the wallet remote) read again. */
export function refreshSecurityViews(): void {
  void queryClient.invalidateQueries({ queryKey: securityKeys.overview });
  void refreshOutflowLocks();
}
