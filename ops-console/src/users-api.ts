import { api, type paths, unwrap } from '@cw/shared-state/api';
import { displayAmount, formatAmount } from '@cw/shared-state/money';

/** /api/ops/users… as the Users page uses it (issue 32): search, the masked page, reveal, actions. */
export const usersApi = {
  search: (q: string) => unwrap(api.GET('/api/ops/users', { params: { query: { q } } })),
  page: (userId: string) => unwrap(api.GET('/api/ops/users/{userId}', { params: { path: { userId } } })),
  ledger: (userId: string, before?: string) =>
    unwrap(
      api.GET('/api/ops/users/{userId}/ledger', {
        params: { path: { userId }, query: { limit: 50, ...(before ? { before } : {}) } },
      }),
    ),
  reveal: (userId: string, body: RevealBody) =>
    unwrap(api.POST('/api/ops/users/{userId}/reveal', { params: { path: { userId } }, body })),
  act: (userId: string, action: UserAction, reason: string) =>
    unwrap(api.POST('/api/ops/users/{userId}/actions', { params: { path: { userId } }, body: { action, reason } })),
};

export type RevealBody = NonNullable<
  paths['/api/ops/users/{userId}/reveal']['post']['requestBody']
>['content']['application/json'];
export type UserAction = NonNullable<
  paths['/api/ops/users/{userId}/actions']['post']['requestBody']
>['content']['application/json']['action'];
export type SearchHit = Awaited<ReturnType<typeof usersApi.search>>['items'][number];
export type UserPageData = Awaited<ReturnType<typeof usersApi.page>>;
export type LedgerItem = Awaited<ReturnType<typeof usersApi.ledger>>['items'][number];

/**
 * An amount as the app shows it (shared-state/money: the coin's display precision, rounded down), with
 * the exact value in `title`. The console is in English.
 */
export function amountText(
  minor: string,
  asset: string,
  coins: UserPageData['coins'],
): { shown: string; exact: string } {
  const coin = coins.find((c) => c.code === asset);
  if (!coin) return { shown: `${minor} ${asset} (minor units)`, exact: minor };
  const negative = minor.startsWith('-');
  const abs = negative ? minor.slice(1) : minor;
  const sign = negative ? '−' : '';
  return {
    shown: `${sign}${displayAmount(abs, coin, 'en')} ${asset}`,
    exact: `${sign}${formatAmount(abs, coin.decimals, 'en')} ${asset}`,
  };
}
