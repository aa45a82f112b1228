import type { AppRoute } from '@cw/shared-state/contracts';
import { lazyScreen } from '@cw/shared-state/preload';

const BuySellScreen = lazyScreen(() => import('./components/buy-sell-screen.tsx'));
const OrdersScreen = lazyScreen(() => import('./components/orders-screen.tsx'));
const OrderScreen = lazyScreen(() => import('./components/order-screen.tsx'));

/** Buy and sell through the payment provider (issue 13), in the convert remote. */
export const rampRoutes: AppRoute[] = [
  { path: '/buySell', Component: BuySellScreen, titleKey: 'ramp.title', requiresLogin: true },
  { path: '/buySell/orders', Component: OrdersScreen, titleKey: 'ramp.recordsTitle', requiresLogin: true },
  { path: '/buySell/order', Component: OrderScreen, titleKey: 'ramp.detailTitle', requiresLogin: true },
];
