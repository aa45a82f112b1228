import type { AppRoute } from '@cw/shared-state/contracts';
import { lazyScreen } from '@cw/shared-state/preload';

const PaymentMethodsScreen = lazyScreen(() => import('./components/payment-methods-screen.tsx'));
const AddMethodScreen = lazyScreen(() => import('./components/add-method-screen.tsx'));

/** Payout methods for selling (issue 13), under the remote's /buySell prefix. */
export const payoutRoutes: AppRoute[] = [
  { path: '/buySell/paymentMethods', Component: PaymentMethodsScreen, titleKey: 'payouts.title', requiresLogin: true },
  {
    path: '/buySell/paymentMethods/add',
    Component: AddMethodScreen,
    titleKey: 'payouts.addTitle',
    requiresLogin: true,
  },
];
