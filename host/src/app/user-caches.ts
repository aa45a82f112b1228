import { onUserChanged } from '@cw/shared-state/session';
import type { QueryClient } from '@tanstack/react-query';

/**
 * Forget every cached query when the signed-in user ends or changes, however it happened (a logout, a
 * 401 from an expired session or a password reset, another account signing in on this tab): the next
 * user must never be shown the last one's data, a deposit address above all (B would pay into A's).
 */
export function clearQueriesOnUserChange(client: QueryClient): () => void {
  return onUserChanged(() => client.clear());
}
