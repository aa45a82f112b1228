import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CoinCode, NetworkCode } from '../catalogue/catalogue.ts';
import { findByKey, findWithdrawal, insertWithdrawal, transition, type WithdrawalRow } from './repository.ts';

export interface ApprovedPayout {
  userId: string;
  /** The withdrawal's idempotency key for the user: a repeated payout finds the first one. */
  key: string;
  coin: CoinCode;
  network: NetworkCode;
  address: string;
  amountMinor: bigint;
  feeMinor: bigint;
  /**
   * Who decided it: 'ramp' (a sell: the user's balance leaving, so it counts in the user's outflow
   * budget) or 'exchange' (an exchange order's payout or refund: not counted).
   */
  origin: 'ramp' | 'exchange';
  /** Its USD value when the user placed it (a sell's), for the budget; unset: valued when summed. */
  valueUsdCents?: bigint | undefined;
}

/**
 * A payout another module decided (an exchange payout or refund) as a withdrawal of the user,
 * inserted already approved so the signer picks it up like any approved withdrawal. Runs in the
 * caller's transaction, which has already moved the amount into the user's locked balance, so the
 * withdrawal's lock invariant holds as for one the user asked for. Returns the withdrawal's id.
 */
export async function placeApprovedPayout(trx: Kysely<Database>, payout: ApprovedPayout, now: Date): Promise<string> {
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
      origin: payout.origin,
      ...(payout.valueUsdCents === undefined ? {} : { valueUsdCents: payout.valueUsdCents }),
    },
    now,
  );
  if (!inserted) {
    const earlier = await findByKey(trx, payout.userId, payout.key);
    if (!earlier) throw new Error(`payout ${payout.key} vanished`);
    return earlier.id;
  }
  // Reviewed already: the caller's own checks (limits, rate, liquidity) stand for the review.
  const approved = await transition(trx, inserted.id, 'in_review', 'review_approved', { review: 'auto' }, now);
  if (!approved) throw new Error(`payout ${payout.key} could not be approved`);
  return inserted.id;
}

/** The payout's withdrawal as it stands, or undefined when there is none. */
export function findPayout(db: Kysely<Database>, id: string): Promise<WithdrawalRow | undefined> {
  return findWithdrawal(db, id);
}
