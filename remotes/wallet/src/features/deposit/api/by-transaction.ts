import { api, isApiError, unwrap } from '@cw/shared-state/api';
import { asNetwork } from '@cw/shared-state/catalogue';

/** How often, and how long, to look for the deposit a wallet transaction paid (the watcher records it). */
export const FIND_POLL_MS = 1_000;
export const FIND_TIMEOUT_MS = 10 * 60_000;

/** The deposit a transaction paid, or null while the watcher has not seen it. */
export async function findDepositByTransaction(network: string, txHash: string) {
  try {
    return await unwrap(
      api.GET('/api/wallet/deposits/by-transaction', { params: { query: { network: asNetwork(network), txHash } } }),
    );
  } catch (err) {
    if (isApiError(err) && err.code === 'NOT_FOUND') return null;
    throw err;
  }
}
