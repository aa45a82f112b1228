import { queryClient } from '@cw/shared-state/api';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { clearQueriesOnUserChange } from './user-caches.ts';

// Registered once, with the cache it clears (this module loads before any screen that queries).
clearQueriesOnUserChange(queryClient);

/**
 * The app's one react-query cache around every screen that reads the API through it: each remote's
 * routes and the host's signed-in screens. Loaded lazily (with react-query), never on the landing page.
 */
export default function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
