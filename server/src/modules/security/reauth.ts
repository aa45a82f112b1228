import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, UnauthenticatedError, ValidationError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import { findAccountById } from '../auth/accounts-repository.ts';
import type { Client } from '../auth/client.ts';
import type { PasswordHasher } from '../auth/password-hashing.ts';
import { accountLoginPolicy, attemptsLeft, retryAfterSeconds } from '../auth/throttle-schedule.ts';
import { loginThrottled, loginThrottleKey, type ThrottleStore } from '../auth/throttles.ts';
import type { FactorInput, SecondFactors } from './factors-service.ts';

/**
 * Changes to security data (adding or removing a factor, new recovery codes, changing the fund
 * password) need the session to have proved the password — and the factor, when there is one —
 * within the last 5 minutes (ASVS 7.5.1): a session left open on a shared machine cannot do them.
 */
export const REAUTH_WINDOW_MS = 5 * 60_000;

const reauthRequired = () => new AppError('REAUTH_REQUIRED', 'Confirm the password within the last 5 minutes first');

export async function assertRecentAuth(db: Kysely<Database>, client: Client, now: Date): Promise<void> {
  if (!(await recentlyAuthenticated(db, client, now))) throw reauthRequired();
}

/** Whether the client's session proved the password (and factor) within REAUTH_WINDOW_MS. */
export async function recentlyAuthenticated(db: Kysely<Database>, client: Client, now: Date): Promise<boolean> {
  if (client.sessionId === null) return false;
  const row = await db
    .selectFrom('sessions')
    .select('authenticated_at')
    .where('id', '=', client.sessionId)
    .executeTakeFirst();
  const at = row?.authenticated_at;
  return !!at && now.getTime() - at.getTime() <= REAUTH_WINDOW_MS && at.getTime() <= now.getTime();
}

export interface Reauth {
  /**
   * Proves the password (and the factor, if any) again for the caller's session; or a passkey alone
   * (user-verifying: possession and the PIN or biometric, both factors, as at a password-less sign-in).
   */
  reauthenticate(
    client: Client,
    userId: string,
    input: { password?: string | undefined } & FactorInput,
    options?: { passwordAlways?: boolean },
  ): Promise<void>;
}

export function createReauth(deps: {
  db: Kysely<Database>;
  now: () => Date;
  hasher: PasswordHasher;
  throttles: ThrottleStore;
  factors: SecondFactors;
}): Reauth {
  const { db, now, hasher, throttles, factors } = deps;

  /** The login password, charged on the account's login throttle before argon2 runs (as a sign-in). */
  async function verifyPassword(client: Client, userId: string, password: string): Promise<void> {
    const account = await findAccountById(db, userId);
    if (!account) throw new UnauthenticatedError('User no longer exists');
    const key = loginThrottleKey(userId);
    const at = now();
    const charge = await throttles.charge(key, accountLoginPolicy, at);
    if (charge.state === undefined) throw loginThrottled(charge.retryAfterSeconds);
    let ok: boolean;
    try {
      ok = await hasher.verify(account.password_hash, password);
    } catch (err) {
      await throttles.refund(key, charge.state);
      throw err;
    }
    if (ok) {
      await throttles.clear(key);
      return;
    }
    await appendAudit(db, { event: 'login_failed', at, userId, ip: client.ip, details: { during: 'reauth' } });
    const locked = retryAfterSeconds(charge.state, at);
    if (locked > 0) throw loginThrottled(locked);
    throw new AppError('WRONG_PASSWORD', 'The password is wrong', {
      details: { attemptsLeft: attemptsLeft(accountLoginPolicy, charge.state, at) },
    });
  }

  return {
    async reauthenticate(client, userId, input, options) {
      if (client.sessionId === null) throw new UnauthenticatedError();
      // passwordAlways (the unfreeze): a passkey is the second factor there, never both.
      if (input.passkey && !options?.passwordAlways) {
        await factors.verify(client, userId, { passkey: input.passkey }, 'reauth');
      } else {
        if (!input.password)
          throw new ValidationError('The password is required', [
            { field: 'password', message: 'is required', rule: 'required' },
          ]);
        await verifyPassword(client, userId, input.password);
        if (await factors.has(userId)) await factors.verify(client, userId, input, 'reauth');
      }
      const at = now();
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('sessions')
          .set({ authenticated_at: at })
          .where('id', '=', client.sessionId as string)
          .execute();
        await appendAudit(trx, { event: 'reauthenticated', at, userId, ip: client.ip });
      });
    },
  };
}
