import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { PasswordHasher } from '../auth/password-hashing.ts';
import { passwordProblem } from '../auth/rules.ts';
import { hashToken } from '../auth/secrets.ts';
import type { Sealer } from '../payment-methods/sealing.ts';
import { matchTotpStep, newTotpSecret, totpUri } from '../security/totp.ts';
import { completeEnrolment, lockByEnrolmentToken, setPendingTotp } from './accounts-repository.ts';
import { startOperatorSession, totpBinding } from './service.ts';

/** The console's issuer label for operators' authenticator entries (apart from their own user account's). */
const OPERATOR_ACCOUNT_PREFIX = 'ops:';
export const ENROLMENT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export interface OperatorEnrolment {
  /** The link's authenticator secret, made on the first call (asking again returns the same one). */
  start(token: string): Promise<{ name: string; secret: string; uri: string }>;
  /** Sets the password and turns the app on with its first code; spends the link and signs in. */
  finish(
    input: { token: string; password: string; totpCode: string },
    ip: string,
  ): Promise<{ token: string; expiresAt: Date; name: string }>;
}

function invalidLink(): AppError {
  return new AppError('INVALID_CREDENTIALS', 'This enrolment link is not valid (used, expired or replaced)');
}

/**
 * First-time set-up of an operator through the one-time link from `npm run ops -- operators add` (or
 * the console's Operators page): the link's holder chooses the password and enrols the authenticator
 * app in one step, so there is never an operator with a password alone. The token is 128 random bits,
 * stored hashed, valid 24 hours and spent by `finish`.
 */
export function createOperatorEnrolment(deps: {
  db: Kysely<Database>;
  now: () => Date;
  hasher: PasswordHasher;
  sealer: Sealer;
}): OperatorEnrolment {
  const { db, now, hasher, sealer } = deps;
  return {
    async start(token) {
      if (!ENROLMENT_TOKEN_PATTERN.test(token)) throw invalidLink();
      return db.transaction().execute(async (trx) => {
        const row = await lockByEnrolmentToken(trx, hashToken(token), now());
        if (!row) throw invalidLink();
        // Idempotent within the link (review 32a, finding 12): a reload, a second tab or another holder
        // of the link gets the same pending secret, instead of replacing it under the newcomer's app.
        // (A link's secret is reset when the link is issued: resetForEnrolment, or a new operator.)
        const pending =
          row.totp_secret_sealed === null ? undefined : sealer.open(row.totp_secret_sealed, totpBinding(row.id)).secret;
        const secret = pending ?? newTotpSecret();
        if (pending === undefined) await setPendingTotp(trx, row.id, sealer.seal({ secret }, totpBinding(row.id)));
        return { name: row.name, secret, uri: totpUri(secret, `${OPERATOR_ACCOUNT_PREFIX}${row.name}`) };
      });
    },

    async finish({ token, password, totpCode }, ip) {
      if (!ENROLMENT_TOKEN_PATTERN.test(token)) throw invalidLink();
      const problem = passwordProblem(password);
      if (problem !== null) throw new AppError('WEAK_PASSWORD', `The password breaks the rule: ${problem}`);
      // Hashed before the transaction: argon2 must not hold the row lock.
      const passwordHash = await hasher.hash(password);
      return db.transaction().execute(async (trx) => {
        const at = now();
        const row = await lockByEnrolmentToken(trx, hashToken(token), at);
        if (!row) throw invalidLink();
        if (row.totp_secret_sealed === null) throw new AppError('CONFLICT', 'Start the enrolment first');
        const { secret } = sealer.open(row.totp_secret_sealed, totpBinding(row.id));
        const step = secret === undefined ? null : matchTotpStep(secret, totpCode, at);
        if (step === null) throw new AppError('WRONG_FACTOR_CODE', 'The authenticator code is not right');
        await completeEnrolment(trx, row.id, { passwordHash, step, at });
        await appendAudit(trx, {
          event: 'operator_enrolled',
          at,
          ip,
          details: { operator: row.name, operatorId: row.id },
        });
        const session = await startOperatorSession(trx, row, ip, at);
        return { ...session, name: row.name };
      });
    },
  };
}
