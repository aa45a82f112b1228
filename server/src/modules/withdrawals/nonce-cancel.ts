import type { Kysely, Selectable } from 'kysely';
import type { Database, WithdrawalNonceCancelsTable } from '../../db/schema.ts';
import { ConflictError, ValidationError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { Reviewer } from './moves.ts';
import { lockState } from './repository.ts';

type Db = Kysely<Database>;
export type NonceCancelRequest = Selectable<WithdrawalNonceCancelsTable>;

const REASON_MAX_CHARS = 500;

/**
 * An operator asks the signer to cancel a withdrawal's nonce (issue 37, item 7): the way out when its
 * attempts were dropped and no replacement gets in (the funds stay locked, and every later withdrawal on
 * the chain queues behind the nonce). Nothing moves here: the signer signs and records a zero-value
 * self-transfer at that nonce, and the withdrawal fails (funds back to the user) only once that cancel is
 * mined and confirmed; if one of the withdrawal's own attempts is mined instead, it is paid as usual.
 * Once per withdrawal, only while its transfer is in progress.
 */
export async function requestNonceCancel(
  trx: Db,
  id: string,
  reason: string,
  now: Date,
  by: Reviewer,
): Promise<NonceCancelRequest> {
  const text = reason.trim();
  if (text === '' || text.length > REASON_MAX_CHARS) throw new ValidationError('A cancel needs a reason');
  if ((await lockState(trx, id)) !== 'transfer_in_progress')
    throw new ConflictError('Only a withdrawal whose transfer is in progress can have its nonce cancelled');
  const row = await trx
    .insertInto('withdrawal_nonce_cancels')
    .values({ withdrawal_id: id, operator_id: by.operatorId, operator_name: by.name, reason: text, requested_at: now })
    .onConflict((oc) => oc.column('withdrawal_id').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new ConflictError('A cancel of this withdrawal was already requested');
  const owner = await trx.selectFrom('withdrawals').select('user_id').where('id', '=', id).executeTakeFirstOrThrow();
  await appendAudit(trx, {
    event: 'withdrawal_nonce_cancel_requested',
    at: now,
    userId: owner.user_id,
    details: { withdrawalId: id, reason: text, operator: by.name, operatorId: by.operatorId },
  });
  return row;
}

/** The signer's question: has an operator asked to cancel this withdrawal's nonce? */
export function findNonceCancel(db: Db, id: string): Promise<NonceCancelRequest | undefined> {
  return db.selectFrom('withdrawal_nonce_cancels').selectAll().where('withdrawal_id', '=', id).executeTakeFirst();
}
