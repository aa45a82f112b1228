import type { RemoteRoutesModule } from '@cw/shared-state/contracts';
import { lazyScreen } from '@cw/shared-state/preload';

const ConvertScreen = lazyScreen(() => import('./components/convert-screen.tsx'));
const AppConvertScreen = lazyScreen(() => import('./components/app-convert-screen.tsx'));
const SelectCurrencyScreen = lazyScreen(() => import('./components/select-currency-screen.tsx'));
const HistoryScreen = lazyScreen(() => import('./components/history-screen.tsx'));
const DetailScreen = lazyScreen(() => import('./components/detail-screen.tsx'));
const PairHistoryScreen = lazyScreen(() => import('./components/pair-history-screen.tsx'));

/** Token conversion. /convert is public (it asks to log in first); the records need a session. */
export const convertRoutes: RemoteRoutesModule['routes'] = [
  { path: '/convert', Component: ConvertScreen, titleKey: 'convert.title' },
  { path: '/convert/indexToApp', Component: AppConvertScreen, titleKey: 'convert.title' },
  { path: '/convert/selectCurrency', Component: SelectCurrencyScreen, titleKey: 'convert.select.title' },
  { path: '/convert/history', Component: HistoryScreen, titleKey: 'convert.history.title', requiresLogin: true },
  { path: '/convert/detail', Component: DetailScreen, titleKey: 'convert.detail.title', requiresLogin: true },
  {
    path: '/convert/detailHistory',
    Component: PairHistoryScreen,
    titleKey: 'convert.history.title',
    requiresLogin: true,
  },
];
