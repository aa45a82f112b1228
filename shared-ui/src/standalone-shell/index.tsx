import { queryClient } from '@cw/shared-state/api';
import type { RemoteRoutesModule } from '@cw/shared-state/contracts';
import { i18n } from '@cw/shared-state/i18n';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { DialogHost } from '../dialog/dialog-host.tsx';
import { ToastHost } from '../toast/toast-host.tsx';

/**
 * A minimal shell for running one remote on its own (`npm run dev -w
 * remotes/<name>`): the remote's routes in a router, with i18n, the query
 * cache, the toast list and the dialogs. The real frame comes from the host.
 */
export function renderStandalone(remote: RemoteRoutesModule, home: string): void {
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing');
  const router = createBrowserRouter([
    ...remote.routes.map((route) => ({
      path: route.path,
      element: (
        <Suspense fallback={null}>
          <route.Component />
        </Suspense>
      ),
    })),
    { path: '*', element: <Navigate to={home} replace /> },
  ]);
  createRoot(container).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
        <ToastHost />
        <DialogHost />
      </I18nextProvider>
    </StrictMode>,
  );
}
