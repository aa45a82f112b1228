import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { appendAudit } from '../audit/repository.ts';
import { hashToken, newSessionToken } from '../auth/secrets.ts';
import { revokeUserSessions } from '../auth/sessions-repository.ts';
import { unlockFunds } from '../ledger/operations.ts';
import { lockOutflows } from '../withdrawals/outflow-budget.ts';
import { transition } from '../withdrawals/repository.ts';
import { forgetOtherDevices } from './devices-repository.ts';

type Trx = Transaction<Database>;

/** How long an asked-for unfreeze waits before anything may leave the account again (default). */
export const UNFREEZE_HOLD_MS = 24 * 3_600_000;
/**
 * Freeze links kept per user, a storage bound only: a new link must never push out the link of a mail
 * already sent (review s6b, finding 1: 51 refused resends voided the owner's "this was not me" link).
 * The mails that carry one are rate-limited (a new-device or code mail: 10 an hour per address, so
 * at most 7,200 in a 30-day lifetime); the newest 10,000 are kept.
 */
export const FREEZE_LINKS_PER_USER = 10_000;
/**
 * How long a freeze link works (review of issue 31, F4): long enough for a mail read late, short
 * enough that an old mail is not a permanent switch that ends the owner's sessions at will.
 */
export const FREEZE_LINK_TTL_MS = 30 * 24 * 3_600_000;

export type FreezeVia = 'settings' | 'mail_link';

/**
 * Freezes the account, in the caller's transaction, under the user's outflow lock (the one every
 * withdrawal and send takes before it books): either a withdrawal placed at the same instant is
 * seen here and cancelled, or it sees the freeze and is refused. What happens to what is under way:
 * - the user's own withdrawals not yet signed (in_review, awaiting_second_approval, review_approved) are rejected with reason
 *   `account_frozen` and their amount returned to the available balance: a thief's withdrawal waiting
 *   for review must not go out after the owner's later unfreeze;
 * - exchange payouts (the platform paying an order out) stay approved; the signer takes no
 *   withdrawal of a frozen user (withdrawals/repository.ts, signer-sign.ts), so they wait for the thaw;
 *   a sell's unsigned payout is rejected by the freeze service's onFrozen hook (ramp/cancel.ts), as
 *   it would pay a method the thief may have added;
 * - a transfer already signed (transfer_in_progress) is on the chain and cannot be called back. The
 *   signer holds the withdrawal's row lock while it signs; the `for update` below waits for it.
 * Every session ends, the caller's too. Freezing a frozen account again is harmless and cancels an
 * unfreeze under way (the "this was not me" answer to a thief's unfreeze).
 */
export async function freezeAccount(
  trx: Trx,
  input: { userId: string; via: FreezeVia; ip: string | null; now: Date; keepDevice?: Buffer | undefined },
): Promise<{ cancelledWithdrawals: number; sessionsEnded: number }> {
  const { userId, now } = input;
  await lockOutflows(trx, userId);
  await trx
    .insertInto('account_freezes')
    .values({ user_id: userId, frozen_at: now, via: input.via, unfreeze_requested_at: null, thaws_at: null })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ frozen_at: now, via: input.via, unfreeze_requested_at: null, thaws_at: null }),
    )
    .execute();
  // "This was not me": no browser stays known but the owner's asking one (a freeze from their settings
  // or the mail's link opened in their browser); any other confirms its next sign-in by e-mail.
  // (Compliance's freeze, ops-users/actions.ts, is no report of a thief: it keeps them.)
  await forgetOtherDevices(trx, userId, input.keepDevice);
  const { cancelled: pending, sessionsEnded } = await stopOutflowsAndSessions(trx, userId, now);
  await appendAudit(trx, {
    event: 'account_frozen',
    at: now,
    userId,
    ip: input.ip,
    details: { via: input.via, cancelledWithdrawals: pending, sessionsEnded },
  });
  return { cancelledWithdrawals: pending.length, sessionsEnded };
}

/**
 * What a freeze does to what is under way (see freezeAccount), for the owner's freeze and compliance's
 * (ops-users/actions.ts) alike: the user's unsigned withdrawals rejected with `account_frozen` and
 * their amounts returned, every session ended. The caller holds the user's outflow lock.
 */
export async function stopOutflowsAndSessions(
  trx: Trx,
  userId: string,
  now: Date,
): Promise<{ cancelled: string[]; sessionsEnded: number }> {
  const pending = await trx
    .selectFrom('withdrawals')
    .select(['id', 'state', 'coin', 'amount_minor'])
    .where('user_id', '=', userId)
    .where('origin', '=', 'user')
    .where('state', 'in', ['in_review', 'awaiting_second_approval', 'review_approved'])
    .orderBy('id')
    .forUpdate()
    .execute();
  for (const w of pending) {
    const from = w.state as 'in_review' | 'awaiting_second_approval' | 'review_approved';
    const moved = await transition(trx, w.id, from, 'review_rejected', { reason: 'account_frozen' }, now);
    if (!moved) throw new Error(`freeze: withdrawal ${w.id} moved while locked`);
    await unlockFunds(
      trx,
      {
        idempotencyKey: `withdrawal:${w.id}:unlock`,
        userId,
        asset: w.coin,
        amountMinor: BigInt(w.amount_minor),
        metadata: { withdrawalId: w.id, reason: 'account_frozen' },
      },
      now,
    );
  }
  const sessionsEnded = await revokeUserSessions(trx, userId, now);
  return { cancelled: pending.map((w) => w.id), sessionsEnded };
}

/** A new freeze link token for a security mail (128 bits from the CSPRNG); keeps the newest 10,000. */
export async function newFreezeLink(trx: Kysely<Database>, userId: string, now: Date): Promise<string> {
  const token = newSessionToken();
  await trx
    .insertInto('freeze_links')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      created_at: now,
      expires_at: new Date(now.getTime() + FREEZE_LINK_TTL_MS),
    })
    .execute();
  await trx.deleteFrom('freeze_links').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
  await trx
    .deleteFrom('freeze_links')
    .where('user_id', '=', userId)
    .where('token_hash', 'not in', (eb) =>
      eb
        .selectFrom('freeze_links')
        .select('token_hash')
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .limit(FREEZE_LINKS_PER_USER),
    )
    .execute();
  return token;
}

/**
 * The user a freeze link names, or undefined for an unknown, pruned or expired token, or one made
 * before the account's last completed thaw: the owner proved password, factor and mailbox and waited
 * out the hold since that mail was sent, so an old link may not undo the unfreeze (review 31, F4).
 */
export async function freezeLinkUser(db: Kysely<Database>, token: string, now: Date): Promise<string | undefined> {
  if (!/^[A-Za-z0-9_-]{22}$/.test(token)) return undefined;
  const row = await db
    .selectFrom('freeze_links')
    .leftJoin('account_freezes', 'account_freezes.user_id', 'freeze_links.user_id')
    .select(['freeze_links.user_id', 'freeze_links.created_at', 'freeze_links.expires_at', 'account_freezes.thaws_at'])
    .where('freeze_links.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.expires_at.getTime() <= now.getTime()) return undefined;
  const thawedAt = row.thaws_at !== null && row.thaws_at.getTime() <= now.getTime() ? row.thaws_at : null;
  if (thawedAt !== null && row.created_at.getTime() < thawedAt.getTime()) return undefined;
  return row.user_id;
}

/** Frozen with no unfreeze under way: a repeat freeze would change nothing (read under the outflow lock). */
export async function frozenAndStill(trx: Trx, userId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('account_freezes')
    .select('thaws_at')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined && row.thaws_at === null;
}

/** Starts the unfreeze hold (once: asking again while it runs keeps the first end); returns its end. */
export async function startThaw(trx: Trx, userId: string, now: Date, holdMs: number): Promise<Date | undefined> {
  const thawsAt = new Date(now.getTime() + holdMs);
  const row = await trx
    .updateTable('account_freezes')
    .set({ unfreeze_requested_at: now, thaws_at: thawsAt })
    .where('user_id', '=', userId)
    .where('thaws_at', 'is', null)
    .returning('thaws_at')
    .executeTakeFirst();
  return row?.thaws_at ?? undefined;
}
