import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import type { OperatorRole } from '../operators/roles.ts';
import { assertApprovalNotStopped } from './compliance-stop.ts';
import { enabledFinance, type FourEyesBecause, listDecisions, recordDecision } from './decisions-repository.ts';
import { type Reviewer, rejectWithdrawal } from './moves.ts';
import { findWithdrawal, transition, type WithdrawalRow } from './repository.ts';
import { rollingOthersUsdCents } from './rolling-value.ts';
import { type ReviewState, reviewStates } from './state-machine.ts';

/**
 * Operators' decisions on a withdrawal in review, with four eyes (issue 32). The one place the rules
 * live; the console's routes (ops-routes.ts) and the ops CLI (ops-commands.ts) both come here.
 *
 * - Approve: `finance` only. A withdrawal needs two approvals by two different finance operators when
 *   its USD value at the review-time price is above the second-approval value (default $10,000,
 *   WITHDRAWAL_SECOND_APPROVAL_USD), or its value when placed was, or there is no fresh price now
 *   (fail closed: `price_unavailable`), or someone asked for a second look. The first approval moves
 *   it to `awaiting_second_approval`; the second, by an operator who neither gave the first nor asked
 *   for a second look, to `review_approved` (the signer then pays it). Once a second approval is
 *   needed it stays needed: a price or setting changed later never turns it back into a single one.
 * - Reject (with a reason): `finance` or `compliance`, from either review state; it ends the review and
 *   returns the funds through the ledger exactly as before (service.ts rejectWithdrawal).
 * - Second look (with a reason): `finance` or `compliance`; the withdrawal then needs two approvals
 *   whatever its value, and the operator who asked cannot give the second.
 * Every decision is a row of withdrawal_decisions (who, when, why, the value and threshold weighed)
 * and an audit event, in the transaction of the move. Each takes the withdrawal's row lock first, so
 * two operators deciding at once are serialised: the second sees the first's result (two approvals
 * racing give one `review_approved`, hence one broadcast).
 */
type Trx = Transaction<Database>;

export interface DecidingOperator extends Reviewer {
  roles: readonly OperatorRole[];
}

/** How a withdrawal is valued at review time: USD cents, or null when no fresh price exists. */
export interface ReviewValuation {
  valueUsdCents: (coin: CoinCode, amountMinor: bigint) => bigint | null;
  thresholdUsdCents: bigint;
}

export type ApprovalOutcome =
  | { outcome: 'approved'; row: WithdrawalRow; second: boolean }
  | { outcome: 'awaiting_second_approval'; row: WithdrawalRow; because: FourEyesBecause }
  /** Bulk only: this one needs four eyes, so the bulk left it untouched (approve it on its own). */
  | { outcome: 'needs_four_eyes'; because: FourEyesBecause | 'awaiting_second_approval' };

const REASON_MAX = 500;

function assertRole(by: DecidingOperator, allowed: readonly OperatorRole[], what: string): void {
  if (!by.roles.some((r) => allowed.includes(r)))
    throw new ForbiddenError(`${what} needs one of the roles: ${allowed.join(', ')}`);
}

function cleanReason(reason: string | undefined, what: string): string {
  const text = reason?.trim() ?? '';
  if (text === '' || text.length > REASON_MAX)
    throw new ValidationError(`${what} needs a reason (1 to ${REASON_MAX} characters)`, [
      { field: 'reason', message: 'required, at most 500 characters', rule: 'reason' },
    ]);
  return text;
}

async function lockInReview(trx: Trx, id: string): Promise<WithdrawalRow & { state: ReviewState }> {
  const row = await findWithdrawal(trx, id, { forUpdate: true });
  if (!row) throw new NotFoundError('No such withdrawal');
  if (!(reviewStates as readonly string[]).includes(row.state))
    throw new ConflictError(`Only a withdrawal in review can be decided (this one is ${row.state})`);
  return row as WithdrawalRow & { state: ReviewState };
}

/**
 * Why this withdrawal needs two approvals now; null when one suffices. `othersUsdCents`: the user's other
 * withdrawals of the last 24 h, approved, paid or waiting (rolling-value.ts; null: not all valued), weighed
 * with this one so that a split does not slip under the threshold (review-32wd M3).
 */
export function fourEyesBecause(
  row: Pick<WithdrawalRow, 'value_usd_cents'>,
  valueNow: bigint | null,
  thresholdUsdCents: bigint,
  secondLookAsked: boolean,
  othersUsdCents: bigint | null = 0n,
): FourEyesBecause | null {
  if (secondLookAsked) return 'second_look';
  if (valueNow === null || othersUsdCents === null) return 'price_unavailable';
  const placed = row.value_usd_cents === null ? 0n : BigInt(row.value_usd_cents);
  const single = valueNow > placed ? valueNow : placed;
  return single + othersUsdCents > thresholdUsdCents ? 'above_threshold' : null;
}

/** A finance operator's approval (see the file's comment). `singleOnly`: the bulk's "only if this alone approves it". */
export async function approveInReview(
  trx: Trx,
  id: string,
  by: DecidingOperator,
  valuation: ReviewValuation,
  at: Date,
  options: { singleOnly?: boolean; firstOnly?: boolean } = {},
): Promise<ApprovalOutcome> {
  assertRole(by, ['finance'], 'Approving a withdrawal');
  // Compliance's hold or freeze refuses the approval (compliance-stop.ts); rejecting stays allowed.
  await assertApprovalNotStopped(trx, id);
  const row = await lockInReview(trx, id);
  const decisions = await listDecisions(trx, id);
  const threshold = valuation.thresholdUsdCents;
  if (row.state === 'awaiting_second_approval') {
    if (options.singleOnly) return { outcome: 'needs_four_eyes', because: 'awaiting_second_approval' };
    if (options.firstOnly)
      throw new ForbiddenError('The second approval is given in the console, by an operator signed in there');
    return secondApproval(trx, row, by, decisions, at);
  }
  const valueNow = valuation.valueUsdCents(row.coin, BigInt(row.amount_minor));
  const because = fourEyesBecause(
    row,
    valueNow,
    threshold,
    decisions.some((d) => d.decision === 'second_look'),
    await rollingOthersUsdCents(trx, row, valuation.valueUsdCents, at),
  );
  const weighed = { valueUsdCents: valueNow, thresholdUsdCents: threshold, because };
  if (because === null) {
    await recordDecision(
      trx,
      { withdrawalId: id, by, decision: 'approve', stateAfter: 'review_approved', ...weighed },
      at,
    );
    const approved = await moveToApproved(trx, id, at, by, 'in_review', {
      valueUsdCents: valueNow?.toString() ?? null,
    });
    return { outcome: 'approved', row: approved, second: false };
  }
  if (options.singleOnly) return { outcome: 'needs_four_eyes', because };
  await recordDecision(
    trx,
    { withdrawalId: id, by, decision: 'approve', stateAfter: 'awaiting_second_approval', ...weighed },
    at,
  );
  const moved = await transition(
    trx,
    id,
    'in_review',
    'awaiting_second_approval',
    { review: 'manual', reviewedBy: by.name },
    at,
  );
  if (!moved) throw new ConflictError('The withdrawal moved while locked');
  await appendAudit(trx, {
    event: 'withdrawal_first_approval',
    at,
    userId: row.user_id,
    details: {
      withdrawalId: id,
      operator: by.name,
      operatorId: by.operatorId,
      because,
      valueUsdCents: valueNow?.toString() ?? null,
      thresholdUsdCents: threshold.toString(),
    },
  });
  return { outcome: 'awaiting_second_approval', row: moved, because };
}

/**
 * The second approval. Only approvals by operators who are still enabled with `finance` count (the
 * database's trigger checks the same): when the first approver has since been disabled or lost the role,
 * this approval is recorded and becomes the one valid approval, and the withdrawal keeps waiting for
 * another finance operator (review-32wd M1).
 */
async function secondApproval(
  trx: Trx,
  row: WithdrawalRow,
  by: DecidingOperator,
  decisions: Awaited<ReturnType<typeof listDecisions>>,
  at: Date,
): Promise<ApprovalOutcome> {
  const id = row.id;
  const barred = decisions.filter((d) => d.decision === 'approve' || d.decision === 'second_look');
  if (barred.some((d) => d.operator_id === by.operatorId))
    throw new ForbiddenError(
      'Four eyes: the second approval must come from another finance operator than the first approver or the one who asked for a second look',
    );
  const approvals = decisions.filter((d) => d.decision === 'approve');
  const valid = await enabledFinance(
    trx,
    approvals.map((d) => d.operator_id),
  );
  const first = approvals.find((d) => valid.includes(d.operator_id));
  if (!first) {
    const because = approvals[0]?.four_eyes_because ?? 'above_threshold';
    await recordDecision(
      trx,
      { withdrawalId: id, by, decision: 'approve', stateAfter: 'awaiting_second_approval', because },
      at,
    );
    await appendAudit(trx, {
      event: 'withdrawal_first_approval',
      at,
      userId: row.user_id,
      details: {
        withdrawalId: id,
        operator: by.name,
        operatorId: by.operatorId,
        because,
        voidedApprovals: approvals.map((d) => d.operator_name),
      },
    });
    return { outcome: 'awaiting_second_approval', row, because };
  }
  await recordDecision(trx, { withdrawalId: id, by, decision: 'approve', stateAfter: 'review_approved' }, at);
  const approved = await moveToApproved(trx, id, at, by, 'awaiting_second_approval', {
    secondApproval: true,
    firstApprover: first.operator_name,
  });
  return { outcome: 'approved', row: approved, second: true };
}

/** The approving move itself, after its decision is recorded (the trigger requires that decision). */
async function moveToApproved(
  trx: Trx,
  id: string,
  now: Date,
  by: Reviewer,
  from: ReviewState,
  details: Record<string, unknown>,
): Promise<WithdrawalRow> {
  const row = await transition(trx, id, from, 'review_approved', { review: 'manual', reviewedBy: by.name }, now);
  if (!row) throw new ConflictError('Only a withdrawal in review can be approved');
  await appendAudit(trx, {
    event: 'withdrawal_approved',
    at: now,
    userId: row.user_id,
    details: { withdrawalId: id, operator: by.name, operatorId: by.operatorId, ...details },
  });
  return row;
}

/** A rejection by finance or compliance from either review state: ends it, funds back through the ledger. */
export async function rejectInReview(
  trx: Trx,
  id: string,
  by: DecidingOperator,
  reason: string,
  at: Date,
): Promise<WithdrawalRow> {
  assertRole(by, ['finance', 'compliance'], 'Rejecting a withdrawal');
  const text = cleanReason(reason, 'A rejection');
  const row = await lockInReview(trx, id);
  await recordDecision(
    trx,
    { withdrawalId: id, by, decision: 'reject', stateAfter: 'review_rejected', reason: text },
    at,
  );
  return rejectWithdrawal(trx, id, text, at, by, row.state);
}

/** Asks for a second look: two approvals needed whatever the value; the asker cannot give the second. */
export async function requestSecondLook(
  trx: Trx,
  id: string,
  by: DecidingOperator,
  reason: string,
  at: Date,
): Promise<WithdrawalRow> {
  assertRole(by, ['finance', 'compliance'], 'Asking for a second look');
  const text = cleanReason(reason, 'A second look');
  const row = await lockInReview(trx, id);
  const decisions = await listDecisions(trx, id);
  if (decisions.some((d) => d.decision === 'second_look' && d.operator_id === by.operatorId))
    throw new ConflictError('You already asked for a second look at this withdrawal');
  await recordDecision(
    trx,
    { withdrawalId: id, by, decision: 'second_look', stateAfter: row.state, reason: text, because: 'second_look' },
    at,
  );
  await appendAudit(trx, {
    event: 'withdrawal_second_look_requested',
    at,
    userId: row.user_id,
    details: { withdrawalId: id, operator: by.name, operatorId: by.operatorId, reason: text },
  });
  return row;
}
