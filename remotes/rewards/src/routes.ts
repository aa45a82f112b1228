import type { RemoteRoutesModule } from '@cw/shared-state/contracts';
import { lazyScreen } from '@cw/shared-state/preload';
import { NAMESPACE } from './i18n.ts';

const HubScreen = lazyScreen(() => import('./features/hub/components/hub-screen.tsx'));

const remote: RemoteRoutesModule = {
  namespace: NAMESPACE,
  routes: [{ path: '/rewards', Component: HubScreen, titleKey: 'hub.title' }],
};

export default remote;
