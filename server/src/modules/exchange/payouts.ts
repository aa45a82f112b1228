import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { findPayout, placeApprovedPayout } from '../withdrawals/payouts.ts';
import type { PayoutGateway, PayoutStatus } from './engine.ts';

/**
 * Exchange payouts through the wallet's signer: each payout (or refund) is a withdrawal of the
 * order's user, placed already approved by the withdrawals module, which the signer process picks up
 * like any approved withdrawal: it signs from the hot wallet, records the transaction before
 * broadcasting, and on the receipt settles the user's locked amount to the outside world (network
 * fee to system_fees), or on a revert unlocks it back to the user's available balance.
 *
 * The engine's ledger leg has already put the amount into the user's locked balance, in the same
 * transaction as the payout, so the withdrawal's lock invariant holds as for a user's withdrawal.
 * Idempotent on the payout key (the withdrawal's idempotency key for the user).
 */
export function withdrawalPayouts(db: Kysely<Database>, now: () => Date): PayoutGateway {
  return {
    // Marked by origin: an exchange payout or refund is not the user's balance leaving, so it stays
    // out of the user's outflow review budget (withdrawals/outflow-budget.ts).
    request: (trx, payout) => placeApprovedPayout(trx, { ...payout, origin: 'exchange' }, now()),

    async status(requestId): Promise<PayoutStatus> {
      const row = await findPayout(db, requestId);
      if (!row) return { state: 'failed', reason: 'payout record missing' };
      if (row.state === 'transfer_successful' && row.tx_hash) return { state: 'sent', txHash: row.tx_hash };
      if (row.state === 'transfer_failed' || row.state === 'review_rejected') {
        return { state: 'failed', reason: row.reason ?? row.state };
      }
      return { state: 'pending' };
    },
  };
}
