import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { Client } from '../auth/client.ts';
import type { SessionRow } from '../auth/sessions-repository.ts';
import { recordLoginAttempt } from './login-history.ts';
import type { NewDevices } from './new-device.ts';
import { findPasskeyByCredentialId } from './passkeys-repository.ts';
import type { Passkeys } from './passkeys-service.ts';

/**
 * A refused answer for a known credential shows in its owner's login history (ASVS 16.3.1), as a
 * failed password does. A regressed counter recorded it already (passkey-suspension.ts); an unknown
 * credential has no owner to tell.
 */
async function recordFailedSignIn(
  deps: { db: Kysely<Database>; now: () => Date },
  client: Client,
  response: AuthenticationResponseJSON,
  err: unknown,
): Promise<void> {
  if (err instanceof AppError && err.code === 'PASSKEY_COUNTER_REGRESSED') return;
  const row = typeof response.id === 'string' ? await findPasskeyByCredentialId(deps.db, response.id) : undefined;
  if (!row) return;
  const at = deps.now();
  await appendAudit(deps.db, {
    event: 'login_failed',
    at,
    userId: row.user_id,
    ip: client.ip,
    details: { method: 'passkey', passkeyId: row.id, reason: err instanceof AppError ? err.code : 'error' },
  });
  await recordLoginAttempt(deps.db, { userId: row.user_id, client, at, method: 'passkey', result: 'failed' });
}

/**
 * A password-less sign-in: a discoverable passkey answers a challenge from POST /auth/passkey/options.
 * Possession of the key and its user verification (PIN or biometric, required) are both factors, so
 * the session starts complete (never factor-pending) and counts as freshly authenticated.
 */
export async function passkeySignIn(
  deps: { db: Kysely<Database>; now: () => Date; devices: NewDevices; passkeys: Passkeys },
  client: Client,
  response: AuthenticationResponseJSON,
  /** The hash of the nonce cookie set with the options (the browser that asked for the challenge). */
  binding: string,
): Promise<{ token: string; session: SessionRow; userId: string; devicePending: boolean }> {
  let verified: { userId: string; passkeyId: string };
  try {
    verified = await deps.passkeys.verifyAssertion(client, response, 'login', null, binding);
  } catch (err) {
    await recordFailedSignIn(deps, client, response, err);
    throw err;
  }
  const { userId, passkeyId } = verified;
  const signedIn = await deps.db.transaction().execute(async (trx) => {
    // A passkey proves the user, not the browser (a synced passkey signs in anywhere): a browser never
    // seen before still waits for the e-mail (new-device.ts).
    const { token, session, devicePending } = await deps.devices.startSession(trx, userId, client, 'passkey');
    await appendAudit(trx, {
      event: devicePending ? 'login_device_pending' : 'login_succeeded',
      at: deps.now(),
      userId,
      ip: client.ip,
      details: { sessionId: session.id, method: 'passkey', passkeyId },
    });
    const result = devicePending ? 'device_pending' : 'succeeded';
    await recordLoginAttempt(trx, { userId, client, at: deps.now(), method: 'passkey', result });
    return { token, session, userId, devicePending };
  });
  if (signedIn.devicePending) await deps.devices.mailFor(signedIn.session);
  return signedIn;
}
