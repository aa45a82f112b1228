import { isGuessableFundPassword } from '@cw/shared-state/passwords';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, UnauthenticatedError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import { assertRecentAuth } from '../security/reauth.ts';
import { findAccountById, updateFundPasswordHash } from './accounts-repository.ts';
import type { Client } from './client.ts';
import type { PasswordHasher } from './password-hashing.ts';
import { checkCode, FieldChecks, FUND_PASSWORD_PATTERN } from './rules.ts';
import { attemptsLeft, fundPasswordPolicy, retryAfterSeconds } from './throttle-schedule.ts';
import type { ThrottleStore } from './throttles.ts';
import type { VerificationCodes } from './verification-codes.ts';

export interface FundPasswordService {
  /** Sets or changes the fund password; needs a `fund_password` e-mail code. */
  set(
    client: Client,
    userId: string,
    input: { code: string; fundPassword: string; confirmFundPassword: string },
  ): Promise<void>;
  /** Checks it (before a withdrawal). 5 wrong tries within an hour lock it for an hour. */
  verify(client: Client, userId: string, fundPassword: string): Promise<void>;
}

const fundKey = (userId: string) => `fund:${userId}`;

export function createFundPasswordService(deps: {
  db: Kysely<Database>;
  now: () => Date;
  hasher: PasswordHasher;
  codes: VerificationCodes;
  throttles: ThrottleStore;
}): FundPasswordService {
  const { db, now, hasher, codes, throttles } = deps;

  const locked = (seconds: number) =>
    new AppError('FUND_PASSWORD_LOCKED', `Fund password locked; retry in ${seconds} s`, {
      details: { retryAfterSeconds: seconds },
    });

  return {
    async set(client, userId, input) {
      const checks = new FieldChecks().check(
        FUND_PASSWORD_PATTERN.test(input.fundPassword),
        'fundPassword',
        'format',
        'must be exactly 6 digits',
      );
      checkCode(checks, input.code);
      checks.throwIfAny();
      if (input.fundPassword !== input.confirmFundPassword)
        throw new AppError('PASSWORD_MISMATCH', 'Fund passwords do not match');
      if (isGuessableFundPassword(input.fundPassword)) {
        throw new AppError('GUESSABLE_FUND_PASSWORD', 'A repeated, sequential or common PIN is guessed first', {
          details: [{ field: 'fundPassword', message: 'repeated, sequential or common digits', rule: 'guessable' }],
        });
      }
      const account = await findAccountById(db, userId);
      if (!account) throw new UnauthenticatedError('User no longer exists');
      // Changing it is a security change (issue 31): the session must have proved the password (and
      // factor) within 5 minutes. A first one is not (every new user sets one before a first withdrawal).
      if (account.fund_password_hash !== null) await assertRecentAuth(db, client, now());
      const code = await codes.check(account.email, ['fund_password'], input.code, client.ip);
      const hash = await hasher.hash(input.fundPassword);
      await db.transaction().execute(async (trx) => {
        await codes.consume(trx, code);
        await updateFundPasswordHash(trx, userId, hash, now());
        await appendAudit(trx, {
          event: account.fund_password_hash === null ? 'fund_password_set' : 'fund_password_changed',
          at: now(),
          userId,
          ip: client.ip,
        });
      });
      // A new fund password starts with no failures (after the commit: the counters may be in Redis).
      await throttles.clear(fundKey(userId));
    },

    async verify(client, userId, fundPassword) {
      const account = await findAccountById(db, userId);
      if (!account) throw new UnauthenticatedError('User no longer exists');
      if (account.fund_password_hash === null)
        throw new AppError('FUND_PASSWORD_NOT_SET', 'No fund password has been set');
      // Charged before argon2 runs, cleared when right: a burst of guesses cannot all pass one check.
      const at = now();
      const charge = await throttles.charge(fundKey(userId), fundPasswordPolicy, at);
      if (charge.state === undefined) throw locked(charge.retryAfterSeconds);
      let ok: boolean;
      try {
        ok = await hasher.verify(account.fund_password_hash, fundPassword);
      } catch (err) {
        await throttles.refund(fundKey(userId), charge.state);
        throw err;
      }
      if (ok) {
        await throttles.clear(fundKey(userId));
        await appendAudit(db, { event: 'fund_password_verified', at: now(), userId, ip: client.ip });
        return;
      }
      const state = charge.state;
      const lockedSeconds = retryAfterSeconds(state, at);
      await appendAudit(db, {
        event: 'fund_password_failed',
        at,
        userId,
        ip: client.ip,
        details: { failures: state.failures },
      });
      if (lockedSeconds > 0) {
        await appendAudit(db, {
          event: 'fund_password_locked',
          at,
          userId,
          ip: client.ip,
          details: { retryAfterSeconds: lockedSeconds },
        });
        throw locked(lockedSeconds);
      }
      throw new AppError('WRONG_FUND_PASSWORD', 'Wrong fund password', {
        details: { attemptsLeft: attemptsLeft(fundPasswordPolicy, state, at) },
      });
    },
  };
}
