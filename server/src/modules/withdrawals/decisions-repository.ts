import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { WithdrawalDecisionsTable } from '../../db/schema-withdrawal-review.ts';
import type { Reviewer } from './moves.ts';
import type { WithdrawalRow } from './repository.ts';

/**
 * The rows of withdrawal_decisions (issue 32's four eyes): append-only (0095's and 0120's triggers refuse UPDATE,
 * DELETE and TRUNCATE), one per operator decision, written in the transaction of the move it records.
 */
type Trx = Transaction<Database>;
export type Decision = WithdrawalDecisionsTable['decision'];
export type FourEyesBecause = NonNullable<WithdrawalDecisionsTable['four_eyes_because']>;

export function listDecisions(db: Kysely<Database>, withdrawalId: string) {
  return db
    .selectFrom('withdrawal_decisions')
    .selectAll()
    .where('withdrawal_id', '=', withdrawalId)
    .orderBy('id')
    .limit(100)
    .execute();
}

export async function recordDecision(
  trx: Trx,
  d: {
    withdrawalId: string;
    by: Reviewer;
    decision: Decision;
    stateAfter: WithdrawalRow['state'];
    reason?: string | null;
    valueUsdCents?: bigint | null;
    thresholdUsdCents?: bigint | null;
    because?: FourEyesBecause | null;
  },
  at: Date,
): Promise<void> {
  await trx
    .insertInto('withdrawal_decisions')
    .values({
      withdrawal_id: d.withdrawalId,
      operator_id: d.by.operatorId,
      operator_name: d.by.name,
      decision: d.decision,
      state_after: d.stateAfter,
      reason: d.reason ?? null,
      value_usd_cents: d.valueUsdCents?.toString() ?? null,
      threshold_usd_cents: d.thresholdUsdCents?.toString() ?? null,
      four_eyes_because: d.because ?? null,
      decided_at: at,
    })
    .execute();
}

/** The approvers among `operatorIds` who are, under a share lock, enabled and hold `finance` (review-32wd M1). */
export async function enabledFinance(trx: Trx, operatorIds: readonly string[]): Promise<string[]> {
  if (operatorIds.length === 0) return [];
  const rows = await trx
    .selectFrom('operators')
    .select('id')
    .where('id', 'in', [...operatorIds])
    .where('disabled_at', 'is', null)
    .where(sql<boolean>`'finance' = any (roles)`)
    .forShare()
    .execute();
  return rows.map((r) => r.id);
}
