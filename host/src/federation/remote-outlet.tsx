import type { AppRoute, RemoteRoutesModule } from '@cw/shared-state/contracts';
import { lazy, Suspense, use, useState } from 'react';
import { Navigate, useLocation, useRoutes } from 'react-router';
import { RouteGuard } from '../app/route-guard.tsx';
import { PageLoading } from '../frame/page-loading.tsx';
import { RouteErrorBoundary } from '../frame/route-error-boundary.tsx';
import { findOwner, forgetRegistryFailure, loadRegistry } from './registry.ts';
import { forgetRemoteFailures, loadRemoteRoutes } from './remote-loader.ts';

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
  return (
    <RouteErrorBoundary onRetry={() => retry(setAttempt)}>
      <Suspense fallback={<PageLoading />}>
        <RemoteArea key={attempt} />
      </Suspense>
    </RouteErrorBoundary>
  );
}

function retry(setAttempt: (update: (n: number) => number) => void) {
  forgetRegistryFailure();
  forgetRemoteFailures();
  setAttempt((n) => n + 1);
}

function RemoteArea() {
  const { pathname } = useLocation();
  const registry = use(loadRegistry());
  const owner = findOwner(registry, pathname);
  if (!owner) return <Navigate to="/" replace />;
  const routes = use(loadRemoteRoutes(owner.name, owner.entry));
  return (
    <QueryProvider>
      <RemoteRoutes module={routes} />
    </QueryProvider>
  );
}

function RemoteRoutes({ module }: { module: RemoteRoutesModule }) {
  const element = useRoutes([
    ...module.routes.map((route: AppRoute) => ({
      path: route.path,
      element: (
        <RouteGuard requiresLogin={route.requiresLogin === true}>
          <Suspense fallback={<PageLoading />}>
            <route.Component />
          </Suspense>
        </RouteGuard>
      ),
    })),
    { path: '*', element: <Navigate to="/" replace /> },
  ]);
  return element;
}
