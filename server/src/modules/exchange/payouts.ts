import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { findByKey, findWithdrawal, insertWithdrawal, transition } from '../withdrawals/repository.ts';
import type { PayoutGateway, PayoutStatus } from './engine.ts';

/**
 * Exchange payouts through the wallet's signer: each payout (or refund) is a `withdrawals` row of
 * the order's user, inserted already approved, which the signer process picks up like any approved
 * withdrawal: it signs from the hot wallet, records the transaction before broadcasting, and on the
 * receipt settles the user's locked amount to the outside world (network fee to system_fees), or on
 * a revert unlocks it back to the user's available balance.
 *
 * The engine's ledger leg has already put the amount into the user's locked balance, in the same
 * transaction as this insert, so the withdrawal's lock invariant holds as for a user's withdrawal.
 * Idempotent on the payout key (the withdrawal's idempotency key for the user).
 */
export function withdrawalPayouts(db: Kysely<Database>, now: () => Date): PayoutGateway {
  return {
    async request(trx, payout) {
      const at = now();
      const inserted = await insertWithdrawal(
        trx,
        {
          userId: payout.userId,
          idempotencyKey: payout.key,
          coin: payout.coin,
          network: payout.network,
          address: payout.address,
          amountMinor: payout.amountMinor,
          feeMinor: payout.feeMinor,
        },
        at,
      );
      if (!inserted) {
        const earlier = await findByKey(trx, payout.userId, payout.key);
        if (!earlier) throw new Error(`payout ${payout.key} vanished`);
        return earlier.id;
      }
      // Reviewed already: the order passed the exchange's own checks (limits, rate, liquidity).
      const approved = await transition(trx, inserted.id, 'in_review', 'review_approved', { review: 'auto' }, at);
      if (!approved) throw new Error(`payout ${payout.key} could not be approved`);
      return inserted.id;
    },

    async status(requestId): Promise<PayoutStatus> {
      const row = await findWithdrawal(db, requestId);
      if (!row) return { state: 'failed', reason: 'payout record missing' };
      if (row.state === 'transfer_successful' && row.tx_hash) return { state: 'sent', txHash: row.tx_hash };
      if (row.state === 'transfer_failed' || row.state === 'review_rejected') {
        return { state: 'failed', reason: row.reason ?? row.state };
      }
      return { state: 'pending' };
    },
  };
}
