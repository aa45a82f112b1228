import { lazy, Suspense, use, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageLoading } from '../frame/page-loading.tsx';
import { RouteErrorBoundary } from '../frame/route-error-boundary.tsx';
import { findOwner, forgetRegistryFailure, loadRegistry } from './registry.ts';
import { forgetRemoteFailures, loadRemoteRoutes } from './remote-loader.ts';
import { RemoteRoutes } from './remote-screens.tsx';

/** The one query cache around every remote's screens (loads with the first remote, not on the landing page). */
const QueryProvider = lazy(() => import('../app/query-provider.tsx'));

/**
 * The area of the page a remote owns. Every path the host does not own lands
 * here: the registry says which remote owns it, the remote's `./routes` load
 * on first visit and mount into the host's one router. If a remote cannot
 * load, only this area shows "Request failed, click to reload".
 */
export function RemoteOutlet() {
  const [attempt, setAttempt] = useState(0);
  const onRetry = () => retry(setAttempt);
  return (
    <RouteErrorBoundary onRetry={onRetry}>
      <Suspense fallback={<PageLoading />}>
        <RemoteArea key={attempt} onRetry={onRetry} />
      </Suspense>
    </RouteErrorBoundary>
  );
}

function retry(setAttempt: (update: (n: number) => number) => void) {
  forgetRegistryFailure();
  forgetRemoteFailures();
  setAttempt((n) => n + 1);
}

function RemoteArea({ onRetry }: { onRetry: () => void }) {
  const { pathname } = useLocation();
  const registry = use(loadRegistry());
  const owner = findOwner(registry, pathname);
  if (!owner) return <Navigate to="/" replace />;
  const routes = use(loadRemoteRoutes(owner.name, owner.entry));
  return (
    <QueryProvider>
      <RemoteRoutes module={routes} remote={owner.name} version={owner.entry.version} onRetry={onRetry} />
    </QueryProvider>
  );
}
