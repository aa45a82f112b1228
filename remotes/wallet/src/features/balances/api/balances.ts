import { api, unwrap } from '@cw/shared-state/api';

export type Balance = Awaited<ReturnType<typeof fetchBalances>>[number];

export function fetchBalances() {
  return unwrap(api.GET('/api/me/balances'));
}
