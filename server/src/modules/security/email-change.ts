import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, UnauthenticatedError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import { type AccountRow, emailTaken, findAccountById } from '../auth/accounts-repository.ts';
import type { Client } from '../auth/client.ts';
import { checkCode, checkEmail, FieldChecks, maskEmail, normalizeEmail } from '../auth/rules.ts';
import { revokePendingSessions, revokeUserSessions } from '../auth/sessions-repository.ts';
import type { SessionsEndedHook } from '../auth/sessions-service.ts';
import type { VerificationCodes } from '../auth/verification-codes.ts';
import { enqueueUserMail } from '../mail/anti-phishing.ts';
import type { MailLanguage } from '../mail/templates.ts';
import { deviceHashOf } from './device-cookie.ts';
import { forgetOtherDevices } from './devices-repository.ts';
import type { FactorInput, SecondFactors } from './factors-service.ts';
import { newFreezeLink } from './freeze.ts';
import { assertNotFrozen } from './freeze-state.ts';
import { assertRecentAuth } from './reauth.ts';
import { freezeLinkUrl, mailTarget, securityNoticeMail } from './security-mails.ts';

const UNIQUE_VIOLATION = '23505';

export interface EmailChangeInput extends FactorInput {
  newEmail: string;
  /** The `change_email` code mailed to the new address. */
  code: string;
  /** Other sessions end unless false (ASVS 7.4.3 offers the choice, as a password change does). */
  endOtherSessions?: boolean | undefined;
}

/**
 * Changing the account's e-mail address (issue 31): a security change. The address is where codes and
 * password resets go, so taking it is taking the account; it needs a re-authentication within 5
 * minutes, the second factor when one is on, and a code that proves the new mailbox. The old address
 * hears of it with a one-click freeze link, and outflows wait 24 h ('email_changed' holds them).
 */
export interface EmailChange {
  /** Mails a `change_email` code to the new address; returns its validity and the resend wait. */
  sendCode(
    client: Client,
    userId: string,
    input: { newEmail: string; language: MailLanguage },
  ): Promise<{ resendAfterSeconds: number; expiresInSeconds: number }>;
  /** Switches the address; returns the number of other sessions ended. */
  change(client: Client, userId: string, input: EmailChangeInput): Promise<{ otherSessionsEnded: number }>;
}

const emailExists = () => new AppError('EMAIL_EXISTS', 'This e-mail address is already registered');

export function createEmailChange(deps: {
  db: Kysely<Database>;
  now: () => Date;
  codes: VerificationCodes;
  factors: SecondFactors;
  onSessionsEnded: SessionsEndedHook;
  publicOrigin: string;
  onMailQueued?: () => void;
}): EmailChange {
  const { db, now, codes, factors } = deps;

  /** The checks both steps make: fresh proof, a well-formed new address that is not the current one. */
  async function prepare(client: Client, userId: string, raw: string, code?: string) {
    await assertRecentAuth(db, client, now());
    // Not while frozen: an unfreeze's e-mail code goes to the account's address, so whoever froze the
    // account ("this was not me") must not find it moved to a thief's mailbox, who knows the password.
    await assertNotFrozen(db, userId, now());
    const newEmail = normalizeEmail(raw);
    const checks = new FieldChecks();
    checkEmail(checks, newEmail, 'newEmail');
    if (code !== undefined) checkCode(checks, code);
    checks.throwIfAny();
    const account: AccountRow | undefined = await findAccountById(db, userId);
    if (!account) throw new UnauthenticatedError('User no longer exists');
    if (account.email === newEmail) throw new AppError('EMAIL_UNCHANGED', 'That is the current address');
    return { newEmail, account };
  }

  return {
    async sendCode(client, userId, input) {
      const { newEmail } = await prepare(client, userId, input.newEmail);
      // Said before any mail: an address that belongs to an account is not mailed (registration says the same).
      if (await emailTaken(db, newEmail)) throw emailExists();
      await codes.issue({
        email: newEmail,
        purpose: 'change_email',
        userId,
        ip: client.ip,
        language: input.language,
        send: true,
      });
      return { resendAfterSeconds: codes.limits.resendAfterSeconds, expiresInSeconds: codes.limits.ttlSeconds };
    },

    async change(client, userId, input) {
      const { newEmail, account } = await prepare(client, userId, input.newEmail, input.code);
      // The code first (its tries are charged atomically), then the factor (a used TOTP step is spent).
      const code = await codes.check(newEmail, ['change_email'], input.code, client.ip, userId);
      if (await factors.has(userId)) await factors.verify(client, userId, input, 'email_change');
      const at = now();
      const keep = client.sessionId ?? undefined;
      const endOthers = input.endOtherSessions !== false;
      try {
        const ended = await db.transaction().execute(async (trx) => {
          await codes.consume(trx, code);
          const target = await mailTarget(trx, userId);
          // Guarded on the old address: of two changes of one account at once, the second changes nothing.
          const updated = await trx
            .updateTable('accounts')
            .set({ email: newEmail, updated_at: at })
            .where('user_id', '=', userId)
            .where('email', '=', account.email)
            .executeTakeFirst();
          if (updated.numUpdatedRows !== 1n) throw new AppError('CONFLICT', 'The address changed meanwhile');
          if (endOthers) await forgetOtherDevices(trx, userId, deviceHashOf(client));
          const ended = endOthers ? await revokeUserSessions(trx, userId, at, keep) : 0;
          // A sign-in still waiting would be confirmed through the new address: it ends either way.
          await revokePendingSessions(trx, userId, at);
          if (endOthers) await deps.onSessionsEnded(trx, userId, at);
          // 'email_changed' starts the 24 h outflow hold (withdrawals/outflow-holds.ts).
          await appendAudit(trx, {
            event: 'email_changed',
            at,
            userId,
            ip: client.ip,
            details: { from: maskEmail(account.email), to: maskEmail(newEmail), otherSessionsEnded: ended },
          });
          if (target) await noticeToOldAddress(trx, userId, target, maskEmail(newEmail), at);
          return ended;
        });
        deps.onMailQueued?.();
        return { otherSessionsEnded: ended };
      } catch (err) {
        // Another account (or a registration) took the address between the checks and the update.
        if ((err as { code?: unknown }).code === UNIQUE_VIOLATION) throw emailExists();
        throw err;
      }
    },
  };

  /** To the address being replaced, with the anti-phishing phrase and a one-click freeze link. */
  async function noticeToOldAddress(
    trx: Kysely<Database>,
    userId: string,
    target: { email: string; language: MailLanguage },
    maskedNew: string,
    at: Date,
  ): Promise<void> {
    const url = freezeLinkUrl(deps.publicOrigin, await newFreezeLink(trx, userId, at));
    const mail = securityNoticeMail(target.language, 'email_changed', at, url, maskedNew);
    await enqueueUserMail(trx, userId, target.language, { to: target.email, ...mail }, at);
  }
}
