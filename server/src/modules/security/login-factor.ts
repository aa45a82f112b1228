import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { UnauthenticatedError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { AccountRow } from '../auth/accounts-repository.ts';
import type { Client } from '../auth/client.ts';
import {
  endPendingSignInReturningAccount,
  lockUserSessions,
  pendingSignInWaits,
  type SessionRow,
} from '../auth/sessions-repository.ts';
import type { ThrottleStore } from '../auth/throttles.ts';
import { type FactorInput, factorMethod, refusedUnchecked } from './factors-service.ts';
import { completeTotpLogin, type TotpLoginDeps } from './login-factor-totp.ts';
import { recordLoginAttempt } from './login-history.ts';

type Deps = TotpLoginDeps & { throttles: ThrottleStore };
type Method = ReturnType<typeof factorMethod>;
type SignedIn = { token: string; session: SessionRow; account: AccountRow; devicePending: boolean };

/**
 * The second step of a password sign-in: the factor turns the pending session into a real one. The
 * pending one is ended and a new token issued (the half-authenticated token never becomes usable);
 * of two concurrent right answers only the one that ends the pending session wins.
 */
export async function completeFactorLogin(
  deps: Deps,
  client: Client,
  pending: SessionRow,
  input: FactorInput,
): Promise<SignedIn> {
  const totpCode = input.totpCode?.trim();
  const recoveryCode = input.recoveryCode?.trim();
  // An authenticator code alone, with the counters in this database: the same checks in one transaction.
  if (deps.throttles.inDatabase && totpCode && !input.passkey && !recoveryCode)
    return completeTotpLogin(deps, client, pending, totpCode);
  const signedIn =
    recoveryCode && !input.passkey
      ? await completeRecoveryCodeLogin(deps, client, pending, recoveryCode)
      : await completeVerifiedLogin(deps, client, pending, input);
  if (signedIn.devicePending) await deps.devices.mailFor(signedIn.session);
  return signedIn;
}

/** A refused factor: its login history row (a locked key's refusal was never checked: 'throttled', review L3). */
async function refused(deps: Deps, client: Client, userId: string, method: Method, err: unknown): Promise<never> {
  const result = refusedUnchecked(err) ? 'throttled' : 'factor_failed';
  await recordLoginAttempt(deps.db, { userId, client, at: deps.now(), method, result });
  throw err;
}

/** A passkey, or an authenticator code with the counters in Redis: verified, then the sign-in. */
async function completeVerifiedLogin(deps: Deps, client: Client, pending: SessionRow, input: FactorInput) {
  const userId = pending.user_id;
  const method = factorMethod(input);
  try {
    // The pending session is the one the factor's challenge was issued to.
    await deps.factors.verify({ ...client, userId, sessionId: pending.id }, userId, input, 'login');
  } catch (err) {
    return refused(deps, client, userId, method, err);
  }
  return deps.db.transaction().execute(async (trx) => {
    // The user's sessions lock before the pending session's row (the TOTP step's order: review L1).
    await lockUserSessions(trx, userId);
    return signIn(trx, deps, client, pending, method);
  });
}

/**
 * A recovery code is spent only in the transaction that ends the pending sign-in (review L2): spent
 * before, a code queued past the sign-in's expiry, or the loser of two codes sent at once, was gone
 * (and its notice mailed) for a 401. Its charge is written before, on its own, so no rollback erases it.
 */
async function completeRecoveryCodeLogin(deps: Deps, client: Client, pending: SessionRow, code: string) {
  const userId = pending.user_id;
  const method: Method = 'password+recovery_code';
  const match = await deps.factors
    .matchRecoveryCode(client, userId, code)
    .catch((err: unknown) => refused(deps, client, userId, method, err));
  const outcome = await deps.db
    .transaction()
    .execute(async (trx) => {
      // The sessions lock first, then the code's row, then the session rows (review L1): the order of a
      // factor change too (the codes, then revokePendingSessions), so the two cannot deadlock.
      await lockUserSessions(trx, userId);
      // Still waiting after the lock's queue (review L4), checked before the code is touched.
      if (!(await pendingSignInWaits(trx, userId, pending.id, deps.now())))
        throw new UnauthenticatedError('The sign-in ended; sign in again');
      if (!(await match.spend(trx))) return 'used' as const;
      return signIn(trx, deps, client, pending, method);
    })
    .catch((err: unknown) => endedAfterRightCode(deps, client, userId, method, err));
  if (outcome === 'used') return refused(deps, client, userId, method, await match.refuseUsed());
  await match.spent();
  return outcome;
}

/**
 * A right recovery code whose sign-in ended (expired, signed out, pushed out) while it queued: the code
 * stays unspent, but the attempt is audited and in the history, as a wrong code is. Otherwise a right code
 * left no trace at all (review s11 L1), and its 401 would tell someone holding a stolen list that the code
 * is still good while the owner saw nothing.
 */
async function endedAfterRightCode(deps: Deps, client: Client, userId: string, method: Method, err: unknown) {
  if (!(err instanceof UnauthenticatedError)) throw err;
  const at = deps.now();
  const details = { during: 'login', result: 'sign_in_ended' };
  await appendAudit(deps.db, { event: 'factor_failed', at, userId, ip: client.ip, details });
  return refused(deps, client, userId, method, err);
}

/** Ends the pending sign-in and starts the session, in `trx` that holds the user's sessions lock. */
async function signIn(
  trx: Kysely<Database>,
  deps: Deps,
  client: Client,
  pending: SessionRow,
  method: Method,
): Promise<SignedIn> {
  const userId = pending.user_id;
  // The account comes with the revocation: the answer needs it, and a second read is a round trip.
  // The time after the lock's queue: the pending sign-in must still be live now, not only when the
  // request came in (review L4, as the TOTP step): an expired or ended one completes through no factor.
  const account = await endPendingSignInReturningAccount(trx, userId, pending.id, deps.now());
  // Thrown, it rolls back a recovery code spent in this transaction too.
  if (!account) throw new UnauthenticatedError('The sign-in ended; sign in again');
  // Both factors proved; a browser never seen before still waits for the e-mail (new-device.ts).
  const { token, session, devicePending } = await deps.devices.startSession(trx, userId, client, method);
  await appendAudit(trx, {
    event: devicePending ? 'login_device_pending' : 'login_succeeded',
    at: deps.now(),
    userId,
    ip: client.ip,
    details: { sessionId: session.id, method },
  });
  const result = devicePending ? 'device_pending' : 'succeeded';
  await recordLoginAttempt(trx, { userId, client, at: deps.now(), method, result });
  return { token, session, account, devicePending };
}
