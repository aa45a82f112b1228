import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { DecidingOperator } from './four-eyes.ts';

/**
 * Refused review decisions leave a trace (review-32wd L7): the same operator's second approval, a
 * second look asked twice, a role refusal, a decision on a withdrawal no longer in review. The decision's
 * own transaction rolled back with the refusal, so the audit event is written on its own afterwards;
 * an operator probing the four-eyes rules is then visible in the chained audit log.
 */
export type RefusedDecision = 'approve' | 'reject' | 'second_look' | 'bulk_approve';

const MESSAGE_MAX = 200;

export async function auditRefusal(
  db: Kysely<Database>,
  refusal: { withdrawalId: string; by: DecidingOperator; decision: RefusedDecision; error: AppError; at: Date },
): Promise<void> {
  const { withdrawalId, by, decision, error, at } = refusal;
  // An id that is not a uuid (or names nothing) still gets its event, with no user.
  const owner = /^[0-9a-f-]{36}$/i.test(withdrawalId)
    ? await db.selectFrom('withdrawals').select('user_id').where('id', '=', withdrawalId).executeTakeFirst()
    : undefined;
  await appendAudit(db, {
    event: 'withdrawal_decision_refused',
    at,
    userId: owner?.user_id ?? null,
    details: {
      withdrawalId: withdrawalId.slice(0, 64),
      operator: by.name,
      operatorId: by.operatorId,
      decision,
      code: error.code,
      message: error.message.slice(0, MESSAGE_MAX),
    },
  });
}

/**
 * Runs one decision; when it is refused with a domain error, records the refusal and throws the same
 * error. A failure to record is logged, never put in the refusal's place (the operator must see why
 * the decision was refused).
 */
export async function withRefusalAudited<T>(
  db: Kysely<Database>,
  refusal: { withdrawalId: string; by: DecidingOperator; decision: RefusedDecision; at: () => Date },
  decide: () => Promise<T>,
): Promise<T> {
  try {
    return await decide();
  } catch (error) {
    if (error instanceof AppError) await auditRefusalQuietly(db, { ...refusal, error, at: refusal.at() });
    throw error;
  }
}

export async function auditRefusalQuietly(
  db: Kysely<Database>,
  refusal: Parameters<typeof auditRefusal>[1],
): Promise<void> {
  try {
    await auditRefusal(db, refusal);
  } catch (cause) {
    console.error('withdrawal review: the refusal could not be audited', cause);
  }
}
