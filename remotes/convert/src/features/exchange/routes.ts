import type { AppRoute } from '@cw/shared-state/contracts';
import { lazyScreen } from '@cw/shared-state/preload';

const ExchangeScreen = lazyScreen(() => import('./components/exchange-screen.tsx'));
const OrderScreen = lazyScreen(() => import('./components/order-screen.tsx'));
const RecordScreen = lazyScreen(() => import('./components/record-screen.tsx'));
const HistoryScreen = lazyScreen(() => import('./components/history-screen.tsx'));

/** The /exchange screens (float and fixed-rate exchange orders), in the convert remote. */
export const exchangeRoutes: AppRoute[] = [
  { path: '/exchange', Component: ExchangeScreen, titleKey: 'exchange.title', requiresLogin: true },
  { path: '/exchange/order', Component: OrderScreen, titleKey: 'exchange.orderTitle', requiresLogin: true },
  { path: '/exchange/record', Component: RecordScreen, titleKey: 'exchange.recordTitle', requiresLogin: true },
  { path: '/exchange/history', Component: HistoryScreen, titleKey: 'exchange.historyTitle', requiresLogin: true },
];
