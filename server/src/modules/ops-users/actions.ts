import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { NotFoundError, ValidationError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import { revokeUserSessions } from '../auth/sessions-repository.ts';
import { cancelPendingSells, endSellsOnFreeze } from '../ramp/cancel.ts';
import { forgetOtherDevices } from '../security/devices-repository.ts';
import { stopOutflowsAndSessions } from '../security/freeze.ts';
import { lockOutflows } from '../withdrawals/outflow-budget.ts';

type Trx = Transaction<Database>;

export const USER_ACTIONS = ['freeze', 'unfreeze', 'end_sessions', 'hold_withdrawals', 'release_withdrawals'] as const;
export type UserAction = (typeof USER_ACTIONS)[number];
export const REASON_MAX = 500;

export interface OpsActor {
  operatorId: string;
  name: string;
  ip: string | null;
}

export interface ActionResult {
  action: UserAction;
  /** False when the action found nothing to do (frozen already, no hold to lift…): idempotent. */
  changed: boolean;
  sessionsEnded: number;
  cancelledWithdrawals: number;
}

/** A reason is required and bounded; whitespace alone is none. */
export function checkReason(reason: string): string {
  const trimmed = reason.trim();
  if (trimmed.length === 0 || trimmed.length > REASON_MAX)
    throw new ValidationError(`A reason of 1 to ${REASON_MAX} characters is required`, [
      { field: 'reason', rule: 'required', message: 'a reason is required' },
    ]);
  return trimmed;
}

export const actorDetails = (actor: OpsActor) => ({ by: actor.name, byOperatorId: actor.operatorId });

/**
 * Compliance's actions on a user (issue 32), each in one transaction with its audit record, under the
 * user's outflow lock (the lock every withdrawal, send and sell payout takes before it books): two
 * freezes at once run one after the other, the second finds the row and changes nothing; a withdrawal
 * placed at the same instant either is seen and cancelled, or sees the freeze and is refused.
 *
 * - freeze: as the owner's freeze (security/freeze.ts): unsigned withdrawals rejected and returned,
 *   every session ended, pending sells ended and unsigned sell payouts rejected. Kept in its own table:
 *   the owner's unfreeze cannot lift it (ACCOUNT_FROZEN_BY_OPERATOR).
 * - unfreeze: lifts compliance's freeze only; an owner's own freeze stays (it is the owner's
 *   protection against whoever took the account, and a thief calls support).
 * - end_sessions: every session and waiting sign-in ends; pending sells end with them.
 * - hold_withdrawals / release_withdrawals: new withdrawals, sends and sells are refused (WITHDRAW_HELD)
 *   while the hold stands; approvals and the signer skip the user's queued ones (withdrawals/compliance-stop.ts);
 *   work already signed is on the chain.
 */
export async function runUserAction(
  db: Kysely<Database>,
  input: { actor: OpsActor; userId: string; action: UserAction; reason: string; now: Date },
): Promise<ActionResult> {
  const reason = checkReason(input.reason);
  const { userId, action, actor, now } = input;
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) throw new NotFoundError('No such user');
    await lockOutflows(trx, userId);
    const result = await apply(trx, { ...input, reason });
    await appendAudit(trx, {
      event: AUDIT_EVENT[action],
      at: now,
      userId,
      ip: actor.ip,
      details: { action, reason, ...result, ...actorDetails(actor) },
    });
    return { action, ...result };
  });
}

const AUDIT_EVENT = {
  freeze: 'ops_user_frozen',
  unfreeze: 'ops_user_unfrozen',
  end_sessions: 'user_sessions_ended_by_operator',
  hold_withdrawals: 'ops_user_withdrawal_hold_put',
  release_withdrawals: 'ops_user_withdrawal_hold_removed',
} as const satisfies Record<UserAction, string>;

async function apply(
  trx: Trx,
  input: { actor: OpsActor; userId: string; action: UserAction; reason: string; now: Date },
): Promise<Omit<ActionResult, 'action'>> {
  const { userId, now, actor, reason } = input;
  const none = { changed: false, sessionsEnded: 0, cancelledWithdrawals: 0 };
  const lock = { user_id: userId, placed_at: now, operator_id: actor.operatorId, reason };
  switch (input.action) {
    case 'freeze': {
      const placed = await trx
        .insertInto('operator_freezes')
        .values(lock)
        .onConflict((oc) => oc.column('user_id').doNothing())
        .returning('user_id')
        .executeTakeFirst();
      if (!placed) return none;
      const stopped = await stopOutflowsAndSessions(trx, userId, now);
      await endSellsOnFreeze(trx, userId, now);
      return { changed: true, sessionsEnded: stopped.sessionsEnded, cancelledWithdrawals: stopped.cancelled.length };
    }
    case 'unfreeze': {
      const lifted = await trx.deleteFrom('operator_freezes').where('user_id', '=', userId).executeTakeFirst();
      return { ...none, changed: Number(lifted.numDeletedRows) > 0 };
    }
    case 'end_sessions': {
      await forgetOtherDevices(trx, userId, undefined);
      const ended = await revokeUserSessions(trx, userId, now);
      await cancelPendingSells(trx, userId, now);
      return { ...none, changed: ended > 0, sessionsEnded: ended };
    }
    case 'hold_withdrawals': {
      const placed = await trx
        .insertInto('operator_withdrawal_holds')
        .values(lock)
        .onConflict((oc) => oc.column('user_id').doNothing())
        .returning('user_id')
        .executeTakeFirst();
      return { ...none, changed: placed !== undefined };
    }
    case 'release_withdrawals': {
      const lifted = await trx.deleteFrom('operator_withdrawal_holds').where('user_id', '=', userId).executeTakeFirst();
      return { ...none, changed: Number(lifted.numDeletedRows) > 0 };
    }
  }
}
