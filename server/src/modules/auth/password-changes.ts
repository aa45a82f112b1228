import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { CodePurpose } from '../mail/templates.ts';
import { deviceHashOf } from '../security/device-cookie.ts';
import { forgetOtherDevices } from '../security/devices-repository.ts';
import { assertRecentAuth } from '../security/reauth.ts';
import { queueSecurityNotice } from '../security/security-mails.ts';
import { type AccountRow, findAccountByEmail, updatePasswordHash } from './accounts-repository.ts';
import type { Client } from './client.ts';
import type { PasswordHasher } from './password-hashing.ts';
import { assertNewPassword, checkCode, checkEmail, FieldChecks, normalizeEmail } from './rules.ts';
import { revokePendingSessions, revokeUserSessions } from './sessions-repository.ts';
import type { SessionsEndedHook } from './sessions-service.ts';
import { accountLoginPolicy, attemptsLeft, retryAfterSeconds } from './throttle-schedule.ts';
import { loginThrottled, loginThrottleKey, type ThrottleStore } from './throttles.ts';
import type { VerificationCodes } from './verification-codes.ts';

/** The two ways a login password changes: reset by an e-mail code, or changed knowing the old one. */
export interface PasswordChanges {
  /** Returns whether the caller's own session was among those ended. */
  resetPassword(
    client: Client,
    input: { email: string; code: string; password: string; confirmPassword: string },
  ): Promise<boolean>;
  changePassword(
    client: Client,
    userId: string,
    input: { oldPassword: string; password: string; confirmPassword: string; endOtherSessions?: boolean | undefined },
  ): Promise<void>;
}

export function createPasswordChanges(deps: {
  db: Kysely<Database>;
  now: () => Date;
  hasher: PasswordHasher;
  codes: VerificationCodes;
  throttles: ThrottleStore;
  /** The signed-in user's account (UNAUTHENTICATED when it no longer exists). */
  accountOf: (userId: string) => Promise<AccountRow>;
  /** Work ending with the other sessions (pending sells), in their transaction. */
  onSessionsEnded: SessionsEndedHook;
  /** The app's public origin: the notice of a changed password carries a freeze link. */
  publicOrigin?: string;
  onMailQueued?: () => void;
}): PasswordChanges {
  const { db, now, hasher, codes, throttles, accountOf, onSessionsEnded } = deps;
  return {
    async resetPassword(client, input) {
      const email = normalizeEmail(input.email);
      const checks = new FieldChecks();
      checkEmail(checks, email);
      checkCode(checks, input.code);
      checks.throwIfAny();
      const account = await findAccountByEmail(db, email);
      assertNewPassword(input.password, input.confirmPassword, {
        email,
        ...(account ? { username: account.username } : {}),
      });
      // A signed-in owner may also use a change_password code (the /editUserPassword screen).
      const purposes: CodePurpose[] =
        account && client.userId === account.user_id ? ['reset_password', 'change_password'] : ['reset_password'];
      const code = await codes.check(email, purposes, input.code, client.ip);
      if (!account) throw new AppError('WRONG_VERIFICATION_CODE', 'Wrong verification code');
      const passwordHash = await hasher.hash(input.password);
      await db.transaction().execute(async (trx) => {
        await codes.consume(trx, code);
        await updatePasswordHash(trx, account.user_id, passwordHash, now());
        await forgetOtherDevices(trx, account.user_id, deviceHashOf(client));
        const ended = await revokeUserSessions(trx, account.user_id, now());
        await onSessionsEnded(trx, account.user_id, now());
        await appendAudit(trx, {
          event: 'password_reset',
          at: now(),
          userId: account.user_id,
          ip: client.ip,
          details: { sessionsEnded: ended },
        });
        // Links of earlier mails stop working (review 31, F4); this notice carries a fresh one.
        await trx.deleteFrom('freeze_links').where('user_id', '=', account.user_id).execute();
        await queueSecurityNotice(trx, account.user_id, 'password_changed', now(), deps.publicOrigin);
      });
      deps.onMailQueued?.();
      return client.userId === account.user_id;
    },

    async changePassword(client, userId, input) {
      // A security change (ASVS 7.5.1): the old password alone is not enough from a session whose last
      // proof (password and, when on, the second factor) is over 5 minutes old.
      await assertRecentAuth(db, client, now());
      const account = await accountOf(userId);
      // A wrong current password is a wrong login password: it counts on the account's login
      // throttle, so guessing from inside a session locks exactly as guessing at the login form does.
      const accountKey = loginThrottleKey(userId);
      const at = now();
      const charge = await throttles.charge(accountKey, accountLoginPolicy, at);
      if (charge.state === undefined) throw loginThrottled(charge.retryAfterSeconds);
      let ok: boolean;
      try {
        ok = await hasher.verify(account.password_hash, input.oldPassword);
      } catch (err) {
        await throttles.refund(accountKey, charge.state);
        throw err;
      }
      if (!ok) {
        const state = charge.state;
        await appendAudit(db, {
          event: 'login_failed',
          at,
          userId,
          ip: client.ip,
          details: { during: 'password_change' },
        });
        const locked = retryAfterSeconds(state, at);
        if (locked > 0) throw loginThrottled(locked);
        throw new AppError('WRONG_PASSWORD', 'The current password is wrong', {
          details: { attemptsLeft: attemptsLeft(accountLoginPolicy, state, at) },
        });
      }
      await throttles.clear(accountKey);
      assertNewPassword(input.password, input.confirmPassword, { username: account.username, email: account.email });
      // The old one was just verified against the stored hash: the same text is the same password.
      if (input.password === input.oldPassword) {
        throw new AppError('PASSWORD_UNCHANGED', 'The new password is the current one', {
          details: [{ field: 'password', message: 'equals the current password', rule: 'unchanged' }],
        });
      }
      const passwordHash = await hasher.hash(input.password);
      const keep = client.sessionId ?? undefined;
      // Other sessions end unless the user chose to keep them (ASVS 7.4.3 offers the choice).
      const endOthers = input.endOtherSessions !== false;
      await db.transaction().execute(async (trx) => {
        await updatePasswordHash(trx, userId, passwordHash, now());
        if (endOthers) await forgetOtherDevices(trx, userId, deviceHashOf(client));
        const ended = endOthers ? await revokeUserSessions(trx, userId, now(), keep) : 0;
        // Sign-ins still waiting were made with the old password: they end even when the others stay.
        await revokePendingSessions(trx, userId, now());
        // Pending sells end on a password change even when the other sessions stay: it is a security change.
        await onSessionsEnded(trx, userId, now());
        await appendAudit(trx, {
          event: 'password_changed',
          at: now(),
          userId,
          ip: client.ip,
          details: { otherSessionsEnded: ended },
        });
        // Links of earlier mails stop working (review 31, F4); this notice carries a fresh one.
        await trx.deleteFrom('freeze_links').where('user_id', '=', userId).execute();
        await queueSecurityNotice(trx, userId, 'password_changed', now(), deps.publicOrigin);
      });
      deps.onMailQueued?.();
    },
  };
}
