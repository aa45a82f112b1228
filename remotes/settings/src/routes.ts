import type { RemoteRoutesModule } from '@cw/shared-state/contracts';
import { lazyScreen } from '@cw/shared-state/preload';
import { NAMESPACE } from './i18n.ts';

const HubScreen = lazyScreen(() => import('./features/hub/components/hub-screen.tsx'));
const LanguageScreen = lazyScreen(() => import('./features/language/components/language-screen.tsx'));
const PriceModeScreen = lazyScreen(() => import('./features/price-mode/components/price-mode-screen.tsx'));
const HelpCenterScreen = lazyScreen(() => import('./features/help/components/help-center-screen.tsx'));
const FunctionDetailScreen = lazyScreen(() => import('./features/help/components/function-detail-screen.tsx'));

const remote: RemoteRoutesModule = {
  namespace: NAMESPACE,
  routes: [
    { path: '/settings', Component: HubScreen, titleKey: 'hub.title' },
    { path: '/language', Component: LanguageScreen, titleKey: 'language.title' },
    { path: '/priceMode', Component: PriceModeScreen, titleKey: 'priceMode.title' },
    { path: '/helpCenter', Component: HelpCenterScreen, titleKey: 'help.title' },
    { path: '/funcDescDetail', Component: FunctionDetailScreen, titleKey: 'help.title' },
  ],
};

export default remote;
