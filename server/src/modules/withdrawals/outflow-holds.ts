import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AuditEvent } from '../audit/repository.ts';
import { withdrawalsFrozen } from '../deposits/reorg-alerts.ts';
import { assertNotFrozen, freezeState } from '../security/freeze-state.ts';

/**
 * What stops coins leaving an account, for withdrawals and sends alike: a send to another user is a
 * withdrawal one step later (the recipient withdraws under its own limits), so a hold that only
 * withdrawals met would be skipped by sending to a mule account first (issue 38).
 *
 * - The owner's own freeze (security/freeze.ts): ACCOUNT_FROZEN until an unfreeze's hold has passed.
 * - A deep-reorg freeze (deposits/reorg-alerts.ts): WITHDRAW_FROZEN until an operator resolves it.
 * - Compliance's withdrawal hold (issue 32, ops-users/actions.ts): WITHDRAW_HELD until compliance lifts it.
 * - For the security-change hold (SECURITY_CHANGE_HOLD_HOURS, default 24) after a password reset or
 *   change, a fund password changed, a second factor added or removed, an e-mail change or a new device
 *   confirmed — how a taken-over account is made the attacker's — OUTFLOW_HOLD with
 *   details.retryAfterSeconds; the owner, warned by the mails those changes send, has a day to act.
 */
export const OUTFLOW_HOLD_MS = 24 * 3_600_000;
const MAX_HOLD_HOURS = 24 * 30;

/**
 * The hold's length: SECURITY_CHANGE_HOLD_HOURS, read at each check rather than kept in module state
 * (the server's config check refuses a bad value at start; here a bad one falls back to the default).
 * The hold is counted from the event's time, so a changed setting applies to holds already running.
 */
export function securityChangeHoldMs(env: NodeJS.ProcessEnv = process.env): number {
  const hours = Number(env.SECURITY_CHANGE_HOLD_HOURS?.trim() || 24);
  return Number.isInteger(hours) && hours >= 1 && hours <= MAX_HOLD_HOURS ? hours * 3_600_000 : OUTFLOW_HOLD_MS;
}
/**
 * Every way an account's secrets become someone else's, the e-mail address included (its codes and
 * password resets go there). outflow-holds.api.test.ts
 * runs each flow through the API, so a renamed event fails a test rather than silently ending a hold.
 */
export const holdingEvents: readonly AuditEvent[] = [
  'password_reset',
  'password_changed',
  // Not 'fund_password_set': every new user sets a first fund password right before a first withdrawal;
  // a hold there would delay every user a day while an attacker who holds the password and the mailbox
  // can as well reset the password, which holds.
  'fund_password_changed',
  // A second factor added or removed (issue 31): a thief who added their own app, or removed the
  // owner's, is the taken-over account this hold is for.
  'totp_enabled',
  'totp_disabled',
  'passkey_added',
  'passkey_removed',
  // A passkey's counter went backwards (a cloned key was used): it is suspended, and outflows wait.
  'passkey_counter_regressed',
  // A sign-in from a browser never seen before, confirmed by the e-mailed code or link (issue 31): a
  // thief with the password and the mailbox is in, but nothing leaves for a day while the owner, warned
  // by that very mail, can freeze.
  'new_device_confirmed',
  // The e-mail address changed (security/email-change.ts): resets and codes now go to the new address.
  'email_changed',
];

/** The hold at `now`: the latest holding event, when it happened and when its hold ends; null when none holds. */
export async function outflowHold(
  db: Kysely<Database>,
  userId: string,
  now: Date,
): Promise<{ event: AuditEvent; since: Date; until: Date } | null> {
  const holdMs = securityChangeHoldMs();
  const latest = await db
    .selectFrom('audit_events')
    .select(['occurred_at', 'event'])
    .where('user_id', '=', userId)
    .where('occurred_at', '>', new Date(now.getTime() - holdMs))
    .where('event', 'in', holdingEvents)
    .orderBy('occurred_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!latest) return null;
  const since = latest.occurred_at;
  return { event: latest.event as AuditEvent, since, until: new Date(since.getTime() + holdMs) };
}

/** When the hold of the latest holding event ends; null when none holds at `now`. */
export async function outflowHeldUntil(db: Kysely<Database>, userId: string, now: Date): Promise<Date | null> {
  return (await outflowHold(db, userId, now))?.until ?? null;
}

/**
 * Why no coins may leave now, for work that cannot answer with an error (a sell paying out on the
 * provider's event): 'withdrawals_frozen', 'outflow_hold', or null when they may.
 */
export async function outflowRefusal(
  db: Kysely<Database>,
  userId: string,
  now: Date,
): Promise<'account_frozen' | 'withdrawals_frozen' | 'outflow_hold' | null> {
  if ((await freezeState(db, userId, now)).frozen) return 'account_frozen';
  if (await withdrawalsFrozen(db, userId)) return 'withdrawals_frozen';
  // Compliance's hold reads as the same reason to the user (the app translates it already).
  if (await operatorHold(db, userId)) return 'withdrawals_frozen';
  return (await outflowHeldUntil(db, userId, now)) ? 'outflow_hold' : null;
}

/** Compliance's withdrawal hold (migration 0098, ops-users/actions.ts): stands until compliance lifts it. */
async function operatorHold(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('operator_withdrawal_holds')
    .select('user_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * WITHDRAW_HELD while compliance holds the user's outflows. Also called under the outflow lock (which
 * compliance's hold takes too: ops-users/actions.ts), so a hold committed since the first check wins.
 */
export async function assertNotHeld(db: Kysely<Database>, userId: string): Promise<void> {
  if (await operatorHold(db, userId))
    throw new AppError('WITHDRAW_HELD', 'Compliance holds withdrawals, sends and sells of this account');
}

/** Throws ACCOUNT_FROZEN, WITHDRAW_FROZEN, WITHDRAW_HELD or OUTFLOW_HOLD when no coins may leave the user's account now. */
export async function assertOutflowAllowed(db: Kysely<Database>, userId: string, now: Date): Promise<void> {
  await assertNotFrozen(db, userId, now);
  if (await withdrawalsFrozen(db, userId))
    throw new AppError('WITHDRAW_FROZEN', 'Withdrawals are on hold until an operator resolves a deep chain reorg');
  await assertNotHeld(db, userId);
  const until = await outflowHeldUntil(db, userId, now);
  if (until) {
    const retryAfterSeconds = Math.ceil((until.getTime() - now.getTime()) / 1000);
    throw new AppError('OUTFLOW_HOLD', 'Nothing leaves the account for 24 hours after a security change', {
      details: { retryAfterSeconds },
    });
  }
}
