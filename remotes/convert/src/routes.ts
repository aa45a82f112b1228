import type { RemoteRoutesModule } from '@cw/shared-state/contracts';
import { lazyScreen } from '@cw/shared-state/preload';
import { exchangeRoutes } from './features/exchange/routes.ts';
import { NAMESPACE } from './i18n.ts';

const HubScreen = lazyScreen(() => import('./screens/hub-screen.tsx'));

const remote: RemoteRoutesModule = {
  namespace: NAMESPACE,
  routes: [{ path: '/convert', Component: HubScreen, titleKey: 'hub.title' }, ...exchangeRoutes],
};

export default remote;
