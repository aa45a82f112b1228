import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { ACCOUNT_ROUTES } from '../features/account/routes.ts';
import { AppFrame } from '../frame/app-frame.tsx';
import { PageLoading } from '../frame/page-loading.tsx';
import { RouteErrorBoundary } from '../frame/route-error-boundary.tsx';
import { RouteGuard } from './route-guard.tsx';

/** The one query cache, around the host's signed-in screens too (the landing screens need none). */
const QueryProvider = lazy(() => import('./query-provider.tsx'));
/** Remote screens, and the code that finds and loads them, load on the first path a remote owns. */
const RemoteOutlet = lazy(() => import('../federation/remote-outlet.tsx').then((m) => ({ default: m.RemoteOutlet })));

export const HOST_PATHS = [
  '/signIn',
  '/login',
  '/forgetPassword',
  '/editLoginPwd',
  '/editUserPassword',
  '/securitySettings',
  '/appDown',
  '/agreement',
] as const;

/**
 * One router, one history: host screens are declared here; every other path
 * belongs to a remote (RemoteOutlet mounts the owner's routes) or redirects
 * to the index route. Declarative routing keeps the landing bundle small.
 */
export function AppRoutes() {
  return (
    <AppFrame>
      <RouteErrorBoundary>
        <Suspense fallback={<PageLoading />}>
          <Routes>
            <Route path="/" element={<Navigate to="/signIn" replace />} />
            {ACCOUNT_ROUTES.map(({ path, Component, requiresLogin, visitorsOnly }) => (
              <Route
                key={path}
                path={path}
                element={
                  <RouteGuard requiresLogin={requiresLogin} visitorsOnly={visitorsOnly}>
                    {requiresLogin ? (
                      <QueryProvider>
                        <Component />
                      </QueryProvider>
                    ) : (
                      <Component />
                    )}
                  </RouteGuard>
                }
              />
            ))}
            <Route path="*" element={<RemoteOutlet />} />
          </Routes>
        </Suspense>
      </RouteErrorBoundary>
    </AppFrame>
  );
}
