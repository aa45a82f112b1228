import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { appendAudit } from '../audit/repository.ts';
import type { Client } from '../auth/client.ts';
import type { Sessions } from '../auth/sessions.ts';
import type { SessionRow } from '../auth/sessions-repository.ts';
import { recordLoginAttempt } from './login-history.ts';
import type { Passkeys } from './passkeys-service.ts';

/**
 * A password-less sign-in: a discoverable passkey answers a challenge from POST /auth/passkey/options.
 * Possession of the key and its user verification (PIN or biometric, required) are both factors, so
 * the session starts complete (never factor-pending) and counts as freshly authenticated.
 */
export async function passkeySignIn(
  deps: { db: Kysely<Database>; now: () => Date; sessions: Sessions; passkeys: Passkeys },
  client: Client,
  response: AuthenticationResponseJSON,
  /** The hash of the nonce cookie set with the options (the browser that asked for the challenge). */
  binding: string,
): Promise<{ token: string; session: SessionRow; userId: string }> {
  const { userId, passkeyId } = await deps.passkeys.verifyAssertion(client, response, 'login', null, binding);
  return deps.db.transaction().execute(async (trx) => {
    const { token, session } = await deps.sessions.start(trx, userId, client);
    await appendAudit(trx, {
      event: 'login_succeeded',
      at: deps.now(),
      userId,
      ip: client.ip,
      details: { sessionId: session.id, method: 'passkey', passkeyId },
    });
    await recordLoginAttempt(trx, { userId, client, at: deps.now(), method: 'passkey', result: 'succeeded' });
    return { token, session, userId };
  });
}
