import type { RemoteRoutesModule } from '@cw/shared-state/contracts';
import { lazyScreen } from '@cw/shared-state/preload';
import { NAMESPACE } from './i18n.ts';

const HubScreen = lazyScreen(() => import('./features/hub/components/hub-screen.tsx'));
const SignScreen = lazyScreen(() => import('./features/sign/components/sign-screen.tsx'));
const LikesScreen = lazyScreen(() => import('./features/likes/components/likes-screen.tsx'));
const InviteScreen = lazyScreen(() => import('./features/invite/components/invite-screen.tsx'));

const remote: RemoteRoutesModule = {
  namespace: NAMESPACE,
  routes: [
    { path: '/rewards', Component: HubScreen, titleKey: 'hub.title' },
    { path: '/sign', Component: SignScreen, titleKey: 'sign.title', requiresLogin: true },
    { path: '/likes', Component: LikesScreen, titleKey: 'likes.title', requiresLogin: true },
    { path: '/invite', Component: InviteScreen, titleKey: 'invite.title', requiresLogin: true },
  ],
};

export default remote;
