import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { UnauthenticatedError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { AccountRow } from '../auth/accounts-repository.ts';
import type { Client } from '../auth/client.ts';
import type { Sessions } from '../auth/sessions.ts';
import { lockUserSessions, type SessionRow } from '../auth/sessions-repository.ts';
import { accountLoginPolicy, afterFailure, retryAfterSeconds } from '../auth/throttle-schedule.ts';
import { saveThrottle } from '../auth/throttles-repository.ts';
import { deviceHash } from './device-cookie.ts';
import { factorRefusal, factorThrottled, factorThrottleKey, type SecondFactors } from './factors-service.ts';
import { acceptTotpSignIn, lockFactorAttempt } from './login-factor-repository.ts';
import { loginAttemptRow, recordLoginAttempt } from './login-history.ts';
import type { NewDevices } from './new-device.ts';

const METHOD = 'password+totp';

export interface TotpLoginDeps {
  db: Kysely<Database>;
  now: () => Date;
  devices: NewDevices;
  factors: SecondFactors;
  sessions: Sessions;
}

type Outcome = { refused: Error } | { token: string; session: SessionRow; account: AccountRow; devicePending: boolean };

/**
 * A sign-in's second step with an authenticator code, when the throttle counters are rows of this
 * database: the whole step is one transaction, on its usual path of two statements for a wrong code and
 * three for a right one (the sessions lock has a statement of its own: review L2). It was about twenty
 * round trips (a charge transaction, the secret, the accepted step, the clear, then the sign-in
 * transaction), which was most of what a TOTP sign-in cost beyond the password one (issue 31's bench).
 *
 * Every property of the general path (login-factor.ts with factors-service.ts `verify`) holds:
 * - the guess is charged atomically with its verdict: the factor throttle row is locked first and held
 *   until commit, a locked key is refused unverified, and a wrong or replayed code writes its charge,
 *   audit and history rows in the transaction that answers it; concurrent guesses queue on the row;
 * - a code is accepted once per time step, only newer than the last (the conditional update);
 * - the pending token never becomes usable: it is ended, and a new session with a new token starts,
 *   only if the step was accepted; of two right answers only the first ends the pending sign-in;
 * - a browser not seen before still gets a session waiting for the e-mail (new-device.ts).
 */
export async function completeTotpLogin(
  deps: TotpLoginDeps,
  client: Client,
  pending: SessionRow,
  code: string,
): Promise<{ token: string; session: SessionRow; account: AccountRow; devicePending: boolean }> {
  const userId = pending.user_id;
  const key = factorThrottleKey(userId);
  const at = deps.now();
  const history = (trx: Kysely<Database>, result: 'factor_failed' | 'throttled' | 'device_pending' | 'succeeded') =>
    recordLoginAttempt(trx, { userId, client, at, method: METHOD, result });

  const outcome = await deps.db.transaction().execute(async (trx): Promise<Outcome> => {
    const attempt = await lockFactorAttempt(trx, userId, key, at);
    const wait = retryAfterSeconds(attempt.throttle, at);
    if (wait > 0) {
      // Never checked: a 'throttled' row, which the history caps per hour (a failure row each let a burst
      // flood the owner's history: review L3). Under the row lock, so the cap's count is exact.
      await history(trx, 'throttled');
      return { refused: factorThrottled(wait) };
    }
    const step = deps.factors.totpStepOf(attempt, code, at);
    let result = 'wrong';
    if (step !== null) {
      // Only now the sessions lock (review L2), in a statement of its own: the next one's snapshot must
      // see every sign-in committed before it was granted (the session cap).
      await lockUserSessions(trx, userId);
      // The time after the queues: the pending sign-in must still be live now (review L4).
      const signedInAt = deps.now();
      const hash = client.deviceId === undefined ? null : deviceHash(client.deviceId);
      const planned = deps.sessions.newUsableSession(userId, client, signedInAt);
      const signIn = await acceptTotpSignIn(trx, {
        userId,
        key,
        step,
        pendingId: pending.id,
        deviceHash: hash,
        session: planned.row,
        keep: deps.sessions.options.maxPerUser,
        audit: { ip: client.ip, details: { sessionId: planned.row.id, method: METHOD } },
        history: loginAttemptRow({ userId, client, at: signedInAt, method: METHOD, result: 'succeeded' }),
      });
      if (signIn.accepted) {
        // Rolls the accepted step back too: a concurrent answer or a sign-out ended the sign-in first.
        if (!signIn.account) throw new UnauthenticatedError('The sign-in ended; sign in again');
        if (signIn.started)
          return { token: planned.token, session: planned.row, account: signIn.account, devicePending: false };
        // A browser never seen before still waits for the e-mail (the general path; rare).
        const { token, session, devicePending } = await deps.devices.startSession(trx, userId, client, METHOD);
        await appendAudit(trx, {
          event: devicePending ? 'login_device_pending' : 'login_succeeded',
          at,
          userId,
          ip: client.ip,
          details: { sessionId: session.id, method: METHOD },
        });
        await history(trx, devicePending ? 'device_pending' : 'succeeded');
        return { token, session, account: signIn.account, devicePending };
      }
      result = 'used';
    }
    // Wrong or replayed: the charge, with its audit and history rows, commits with this answer.
    const charged = afterFailure(accountLoginPolicy, attempt.throttle, at);
    await saveThrottle(trx, key, charged);
    await appendAudit(trx, { event: 'factor_failed', at, userId, ip: client.ip, details: { during: 'login', result } });
    await history(trx, 'factor_failed');
    return { refused: factorRefusal(result, charged, at) };
  });
  if ('refused' in outcome) throw outcome.refused;
  if (outcome.devicePending) await deps.devices.mailFor(outcome.session);
  return outcome;
}
