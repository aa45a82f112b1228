import type { RemoteRoutesModule } from '@cw/shared-state/contracts';
import { lazyScreen } from '@cw/shared-state/preload';
import { NAMESPACE } from './i18n.ts';

const HubScreen = lazyScreen(() => import('./screens/hub-screen.tsx'));

const remote: RemoteRoutesModule = {
  namespace: NAMESPACE,
  routes: [{ path: '/coinTopup', Component: HubScreen, titleKey: 'hub.title' }],
};

export default remote;
