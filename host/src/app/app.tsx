import { i18n } from '@cw/shared-state/i18n';
import { lazy, StrictMode, Suspense, useSyncExternalStore } from 'react';
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

export function App() {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <BrowserRouter>
          <AppRoutes />
          <DeferredOverlays />
        </BrowserRouter>
      </I18nextProvider>
    </StrictMode>
  );
}
