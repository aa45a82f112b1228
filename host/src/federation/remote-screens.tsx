import type { AppRoute, RemoteRoutesModule } from '@cw/shared-state/contracts';
import { Suspense } from 'react';
import { Navigate, useRoutes } from 'react-router';
import { RouteGuard } from '../app/route-guard.tsx';
import { PageLoading } from '../frame/page-loading.tsx';
import { RouteErrorBoundary } from '../frame/route-error-boundary.tsx';
import { reportLoad } from './load-reports.ts';

/**
 * Issue 35: a remote whose ./routes loaded (reported as a load by the runtime plugin) but whose screen
 * chunk then fails to load, or whose screen throws while rendering, is a failure of that remote and
 * version too: a skewed or broken canary fails here as often as in ./routes. Reported once per caught
 * failure (the boundary's componentDidCatch), with the code SCREEN; the area shows its retry state.
 */
export const SCREEN_FAILURE_CODE = 'SCREEN';

export function reportScreenFailure(remote: string, version: string): void {
  reportLoad({ remote, version, kind: 'failure', code: SCREEN_FAILURE_CODE });
}

export function RemoteRoutes({
  module,
  remote,
  version,
  onRetry,
}: {
  module: RemoteRoutesModule;
  remote: string;
  version: string;
  onRetry: () => void;
}) {
  const onError = () => reportScreenFailure(remote, version);
  const element = useRoutes([
    ...module.routes.map((route: AppRoute) => ({
      path: route.path,
      element: (
        <RouteGuard requiresLogin={route.requiresLogin === true}>
          <RouteErrorBoundary onRetry={onRetry} onError={onError}>
            <Suspense fallback={<PageLoading />}>
              <route.Component />
            </Suspense>
          </RouteErrorBoundary>
        </RouteGuard>
      ),
    })),
    { path: '*', element: <Navigate to="/" replace /> },
  ]);
  return element;
}
