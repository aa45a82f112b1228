import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { appendAudit } from '../audit/repository.ts';
import type { Client } from '../auth/client.ts';
import { recordLoginAttempt } from './login-history.ts';
import type { PasskeyRow } from './passkeys-repository.ts';
import { suspendPasskey } from './passkeys-repository.ts';
import { queueSecurityNotice } from './security-mails.ts';

/**
 * A signature counter that went backwards means two copies of the key are in use (WebAuthn §6.1.1):
 * the owner's and a clone, and nobody can tell which answered first. The passkey is suspended (it
 * answers nothing until the owner removes it), the owner is mailed, 'passkey_counter_regressed' starts
 * the 24 h outflow hold, and a sign-in attempt shows as failed in the login history. Returns whether
 * this call suspended it (false: gone or already suspended; then nothing more is recorded).
 */
export async function suspendRegressedPasskey(
  db: Kysely<Database>,
  client: Client,
  row: PasskeyRow,
  during: 'login' | 'factor' | 'step_up' | 'reauth',
  at: Date,
  origin?: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await suspendPasskey(trx, row.id, at))) return false;
    await appendAudit(trx, {
      event: 'passkey_counter_regressed',
      at,
      userId: row.user_id,
      ip: client.ip,
      details: { passkeyId: row.id, storedCounter: row.sign_count, suspended: true },
    });
    await queueSecurityNotice(trx, row.user_id, 'passkey_suspended', at, origin);
    // The second step of a password sign-in records its own failure (login-factor.ts). Not under the
    // hourly cap of refused passkey answers (login-history.ts): once per passkey, so no flood, and a
    // burst of forged answers must not hide it.
    if (during === 'login') {
      const attempt = { userId: row.user_id, client, at, method: 'passkey', result: 'failed' } as const;
      await recordLoginAttempt(trx, attempt, { uncapped: true });
    }
    return true;
  });
}
