import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { lockOutflows } from './outflow-budget.ts';

/**
 * Compliance's stops on money already in the pipeline (review s7, finding 1). A withdrawal hold or a
 * compliance freeze (ops-users/actions.ts) refuses new outflows at placement; here it also:
 * - refuses an operator's approval (four-eyes approve, bulk, CLI: all come through approveInReview),
 *   under the user's outflow lock, which the hold and the freeze take too, so a hold committed while
 *   the approval waited is seen;
 * - keeps the signer off a held user's `review_approved` withdrawals (listApprovedForSigning and the
 *   re-check under the row lock in signer-sign.ts).
 * Held withdrawals stay where they are (in review, or approved) and go on when compliance lifts the
 * hold; a hold is an investigation, not a verdict — compliance rejects (funds returned through the
 * ledger) when it decides against the user. A compliance freeze already rejects open withdrawals.
 */
type Db = Kysely<Database>;

/** Users under compliance's withdrawal hold or freeze, as a subquery (the signer takes none of theirs). */
export function complianceStoppedUsers(db: Db) {
  return db
    .selectFrom('operator_withdrawal_holds')
    .select('user_id')
    .union(db.selectFrom('operator_freezes').select('user_id'));
}

/**
 * Called first in approveInReview: takes the user's outflow lock (before the withdrawal's row lock,
 * the order the freeze uses) and throws ACCOUNT_FROZEN_BY_OPERATOR / WITHDRAW_HELD while compliance stops the user.
 */
export async function assertApprovalNotStopped(trx: Transaction<Database>, withdrawalId: string): Promise<void> {
  // user_id never changes, so reading it before any lock is safe.
  const w = await trx.selectFrom('withdrawals').select('user_id').where('id', '=', withdrawalId).executeTakeFirst();
  if (!w) return; // lockInReview answers NOT_FOUND, as before
  await lockOutflows(trx, w.user_id);
  const [freeze, hold] = await Promise.all([
    trx.selectFrom('operator_freezes').select('user_id').where('user_id', '=', w.user_id).executeTakeFirst(),
    trx.selectFrom('operator_withdrawal_holds').select('user_id').where('user_id', '=', w.user_id).executeTakeFirst(),
  ]);
  if (freeze)
    throw new AppError(
      'ACCOUNT_FROZEN_BY_OPERATOR',
      'Compliance froze this account: the withdrawal cannot be approved',
    );
  if (hold)
    throw new AppError(
      'WITHDRAW_HELD',
      'Compliance holds withdrawals of this account: approve after the hold is lifted',
    );
}

/** The hold or freeze standing on the user, for the review queue's signals; null when none. */
export async function complianceStop(
  db: Db,
  userId: string,
): Promise<{ kind: 'hold' | 'freeze'; operator: string | null; reason: string; since: Date } | null> {
  const one = (table: 'operator_freezes' | 'operator_withdrawal_holds') =>
    db
      .selectFrom(table)
      .leftJoin('operators', 'operators.id', `${table}.operator_id`)
      .select([`${table}.reason as reason`, `${table}.placed_at as since`, 'operators.name as operator'])
      .where(`${table}.user_id`, '=', userId)
      .executeTakeFirst();
  const [freeze, hold] = await Promise.all([one('operator_freezes'), one('operator_withdrawal_holds')]);
  const row = freeze ?? hold;
  if (!row) return null;
  return { kind: freeze ? 'freeze' : 'hold', operator: row.operator ?? null, reason: row.reason, since: row.since };
}
