import type { ReactNode } from 'react';

/** Login guard for screens that need a user; the session arrives with the accounts work. */
export function RouteGuard({ children }: { requiresLogin: boolean; children: ReactNode }) {
  return children;
}
