import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { generateAuthenticationOptions } from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { OperatorChallengePurpose } from '../../db/schema-operator-passkeys.ts';
import { AppError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import { verifyAssertion } from '../security/assertion-verify.ts';
import { checkedAssertion, userHandleOf } from '../security/passkey-answers.ts';
import { CHALLENGE_TTL_MS, challengeInvalid, rejected } from '../security/passkey-ceremony.ts';
import { findOperatorPasskey, recordOperatorPasskeyUse, suspendOperatorPasskey } from './passkeys-repository.ts';
import { findOperatorById } from './repository.ts';
import { startOperatorSession } from './service.ts';

/** The challenge store and origin check of the operator passkeys service (passkeys-service.ts). */
export interface OperatorCeremonyTools {
  storeChallenge(
    challenge: string,
    purpose: OperatorChallengePurpose,
    operatorId: string | null,
    binding: string,
  ): Promise<void>;
  consoleOrigin(clientDataJSON: string): string;
  consumer(
    purpose: OperatorChallengePurpose,
    operatorId: string | null,
    binding: string,
    state: { consumed: boolean },
  ): (challenge: string) => Promise<boolean>;
}

/**
 * An operator's sign-in with a passkey alone (possession and user verification): the challenge for any
 * discoverable operator passkey, then the answer verified and a console session started.
 */
export function operatorPasskeySignIn(
  deps: { db: Kysely<Database>; now: () => Date; webauthn: { rpId: string } },
  tools: OperatorCeremonyTools,
) {
  const { db, now, webauthn } = deps;

  /** The operator of a sign-in answer, or a rejection (unknown or a user's credential, handle, suspended, disabled). */
  async function signInCredential(response: AuthenticationResponseJSON) {
    const row = await findOperatorPasskey(db, response.id);
    if (!row) throw rejected('credential');
    const handle = userHandleOf(response);
    if (handle !== null && handle !== row.operator_id) throw rejected('user handle');
    if (row.suspended_at !== null) throw rejected('suspended');
    const operator = await findOperatorById(db, row.operator_id);
    // A disabled operator's passkey opens nothing; nor one of an operator whose enrolment is not complete.
    if (!operator || operator.disabled_at !== null || operator.totp_confirmed_at === null)
      throw rejected('operator disabled');
    // A new enrolment link voids everything of the operator's (password, app, sessions), passkeys too:
    // one added before the latest enrolment may be an intruder's.
    if (row.created_at < operator.totp_confirmed_at) throw rejected('added before the latest enrolment');
    return { row, operator };
  }

  async function verifySignIn(response: AuthenticationResponseJSON, binding: string, ip: string) {
    const expectedOrigin = tools.consoleOrigin(response.response.clientDataJSON);
    const { row, operator } = await signInCredential(response);
    const state = { consumed: false };
    const result = await checkedAssertion(
      () =>
        verifyAssertion({
          response,
          expectedChallenge: tools.consumer('login', null, binding, state),
          expectedOrigin,
          expectedRPID: webauthn.rpId,
          credential: {
            id: row.credential_id,
            publicKey: new Uint8Array(row.public_key),
            counter: Number(row.sign_count),
            transports: row.transports as never,
          },
          requireUserVerification: true,
        }),
      state,
    );
    if (result.kind === 'challenge') throw challengeInvalid();
    if (result.kind === 'rejected') throw rejected(result.why);
    const at = now();
    // verifyAssertion refuses a validly signed answer's counter at or below the stored one (an unsigned one is a plain refusal);
    // the conditional update refuses the loser of two concurrent answers with one counter. Two copies of the key are in use: suspended until removed.
    if (
      result.kind === 'counter' ||
      !(await recordOperatorPasskeyUse(db, row.id, result.newCounter, result.backedUp, at))
    ) {
      if (await suspendOperatorPasskey(db, row.id, at))
        await appendAudit(db, {
          event: 'operator_passkey_counter_regressed',
          at,
          ip,
          details: { operator: operator.name, operatorId: operator.id, passkeyId: row.id, suspended: true },
        });
      throw new AppError('PASSKEY_COUNTER_REGRESSED', 'The passkey counter went backwards');
    }
    return { row, operator };
  }

  async function signInOptions(binding: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await generateAuthenticationOptions({
      rpID: webauthn.rpId,
      allowCredentials: [],
      userVerification: 'required',
      timeout: CHALLENGE_TTL_MS,
    });
    await tools.storeChallenge(options.challenge, 'login', null, binding);
    return options;
  }

  async function signIn(
    response: AuthenticationResponseJSON,
    binding: string,
    ip: string,
  ): Promise<{ token: string; expiresAt: Date; name: string }> {
    let checked: Awaited<ReturnType<typeof verifySignIn>>;
    try {
      checked = await verifySignIn(response, binding, ip);
    } catch (err) {
      const row = typeof response.id === 'string' ? await findOperatorPasskey(db, response.id) : undefined;
      await appendAudit(db, {
        event: 'operator_sign_in_failed',
        at: now(),
        ip,
        details: {
          method: 'passkey',
          ...(row ? { operatorId: row.operator_id, passkeyId: row.id } : {}),
          reason: err instanceof AppError ? err.code : 'error',
        },
      });
      throw err;
    }
    const { row, operator } = checked;
    const session = await db
      .transaction()
      .execute((trx) => startOperatorSession(trx, operator, ip, now(), { method: 'passkey', passkeyId: row.id }));
    return { ...session, name: operator.name };
  }

  return { signInOptions, signIn };
}
