import { i18n } from '@cw/shared-state/i18n';
import { type ComponentType, lazy, type ReactNode, StrictMode, Suspense, useSyncExternalStore } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { registerHostTranslations } from '../i18n/index.ts';
import { overlaysWanted, subscribeOverlays } from './overlay-demand.ts';
import { AppRoutes } from './router.tsx';

const Overlays = lazy(() => import('./overlays.tsx'));

/** The shared toast and dialog hosts, mounted once a remote is on its way (never on the landing page). */
function DeferredOverlays() {
  const wanted = useSyncExternalStore(subscribeOverlays, overlaysWanted, () => false);
  return wanted ? (
    <Suspense fallback={null}>
      <Overlays />
    </Suspense>
  ) : null;
}

registerHostTranslations();

/**
 * Everything inside the router. The browser wraps it in BrowserRouter; the build renders the landing
 * screens through a StaticRouter (host/src/prerender.tsx) into the same markup, which the browser hydrates.
 */
export function AppShell({ Router }: { Router: ComponentType<{ children: ReactNode }> }) {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <Router>
          <AppRoutes />
          <DeferredOverlays />
        </Router>
      </I18nextProvider>
    </StrictMode>
  );
}

export function App() {
  return <AppShell Router={BrowserRouter} />;
}
