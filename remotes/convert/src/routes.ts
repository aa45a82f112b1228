import type { RemoteRoutesModule } from '@cw/shared-state/contracts';
import { convertRoutes } from './features/convert/routes.ts';
import { exchangeRoutes } from './features/exchange/routes.ts';
import { payoutRoutes } from './features/payouts/routes.ts';
import { rampRoutes } from './features/ramp/routes.ts';
import { NAMESPACE } from './i18n.ts';

const remote: RemoteRoutesModule = {
  namespace: NAMESPACE,
  routes: [...convertRoutes, ...exchangeRoutes, ...rampRoutes, ...payoutRoutes],
};

export default remote;
