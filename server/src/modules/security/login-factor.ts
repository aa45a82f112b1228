import { UnauthenticatedError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { AccountRow } from '../auth/accounts-repository.ts';
import type { Client } from '../auth/client.ts';
import { endPendingSignInReturningAccount, lockUserSessions, type SessionRow } from '../auth/sessions-repository.ts';
import type { ThrottleStore } from '../auth/throttles.ts';
import { type FactorInput, factorMethod, refusedUnchecked } from './factors-service.ts';
import { completeTotpLogin, type TotpLoginDeps } from './login-factor-totp.ts';
import { recordLoginAttempt } from './login-history.ts';

/**
 * The second step of a password sign-in: the factor turns the pending session into a real one. The
 * pending one is ended and a new token issued (the half-authenticated token never becomes usable);
 * of two concurrent right answers only the one that ends the pending session wins.
 */
export async function completeFactorLogin(
  deps: TotpLoginDeps & { throttles: ThrottleStore },
  client: Client,
  pending: SessionRow,
  input: FactorInput,
): Promise<{ token: string; session: SessionRow; account: AccountRow; devicePending: boolean }> {
  const userId = pending.user_id;
  const method = factorMethod(input);
  const totpCode = input.totpCode?.trim();
  // An authenticator code alone, with the counters in this database: the same checks in one transaction.
  if (deps.throttles.inDatabase && totpCode && !input.passkey && !input.recoveryCode?.trim())
    return completeTotpLogin(deps, client, pending, totpCode);
  try {
    // The pending session is the one the factor's challenge was issued to.
    await deps.factors.verify({ ...client, userId, sessionId: pending.id }, userId, input, 'login');
  } catch (err) {
    // A locked key's refusal was never checked: 'throttled', capped per hour by the history (review L3).
    const result = refusedUnchecked(err) ? 'throttled' : 'factor_failed';
    await recordLoginAttempt(deps.db, { userId, client, at: deps.now(), method, result });
    throw err;
  }
  const signedIn = await deps.db.transaction().execute(async (trx) => {
    // The user's sessions lock before the pending session's row (the TOTP step's order: review L1).
    await lockUserSessions(trx, userId);
    // The account comes with the revocation: the answer needs it, and a second read is a round trip.
    // The time after the lock's queue: the pending sign-in must still be live now, not only when the
    // request came in (review L4, as the TOTP step): an expired or ended one completes through no factor.
    const account = await endPendingSignInReturningAccount(trx, userId, pending.id, deps.now());
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
  });
  if (signedIn.devicePending) await deps.devices.mailFor(signedIn.session);
  return signedIn;
}
