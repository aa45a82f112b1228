import {
  type AuthenticationResponseJSON,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { OperatorChallengePurpose } from '../../db/schema-operator-passkeys.ts';
import { AppError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import { answerOrigin } from '../security/passkey-answers.ts';
import {
  ALGORITHM_IDS,
  CHALLENGE_TTL_MS,
  MAX_PASSKEYS,
  rejected,
  verifiedRegistration,
} from '../security/passkey-ceremony.ts';
import { operatorPasskeySignIn } from './passkey-sign-in.ts';
import {
  consumeOperatorChallenge,
  deleteOperatorPasskey,
  findOperatorPasskey,
  insertOperatorChallenge,
  insertOperatorPasskey,
  listOperatorPasskeys,
  lockOperator,
  type OperatorPasskeyRow,
} from './passkeys-repository.ts';
import { findOperatorById } from './repository.ts';

/**
 * Where operators' passkeys are valid: the console's own origin (OPS_ORIGIN) and its host name as the
 * RP ID, never the app's. In production the console is on its own host (ops.example.com): a passkey made
 * there cannot be exercised by a page of the app (example.com may not claim ops.example.com as its RP
 * ID), and an answer made on the app's pages names the app's origin, which is refused here.
 */
export interface ConsoleWebAuthn {
  rpId: string;
  rpName: string;
  origin: string;
}

export function consoleWebAuthn(consoleOrigin: string): ConsoleWebAuthn {
  return { rpId: new URL(consoleOrigin).hostname, rpName: 'CW Wallet operator console', origin: consoleOrigin };
}

export interface OperatorPasskeyView {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  synced: boolean;
  suspended: boolean;
}

/** `enrolledAt`: the operator's latest enrolment; a passkey from before it is void (shown as suspended). */
const view = (row: OperatorPasskeyRow, enrolledAt: Date | null): OperatorPasskeyView => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
  synced: row.device_type === 'multiDevice',
  suspended: row.suspended_at !== null || enrolledAt === null || row.created_at < enrolledAt,
});

export interface OperatorPasskeys {
  list(operatorId: string): Promise<OperatorPasskeyView[]>;
  /** `sessionId`: the signed-in session the answer must come back on (the step-up was checked by the route). */
  registrationOptions(
    operator: { id: string; name: string },
    sessionId: string,
  ): Promise<PublicKeyCredentialCreationOptionsJSON>;
  register(
    operator: { id: string; name: string },
    sessionId: string,
    input: { name: string; response: RegistrationResponseJSON },
    ip: string,
  ): Promise<OperatorPasskeyView>;
  remove(operator: { id: string; name: string }, id: string, ip: string): Promise<void>;
  /** A sign-in challenge for any discoverable operator passkey; `binding`: the nonce cookie's hash. */
  signInOptions(binding: string): Promise<PublicKeyCredentialRequestOptionsJSON>;
  /** Verifies a sign-in answer and starts a session (a passkey alone: possession and user verification). */
  signIn(
    response: AuthenticationResponseJSON,
    binding: string,
    ip: string,
  ): Promise<{ token: string; expiresAt: Date; name: string }>;
}

export function createOperatorPasskeys(deps: {
  db: Kysely<Database>;
  now: () => Date;
  webauthn: ConsoleWebAuthn;
}): OperatorPasskeys {
  const { db, now, webauthn } = deps;

  async function storeChallenge(
    challenge: string,
    purpose: OperatorChallengePurpose,
    operatorId: string | null,
    binding: string,
  ) {
    const at = now();
    const expiresAt = new Date(at.getTime() + CHALLENGE_TTL_MS);
    await insertOperatorChallenge(db, { challenge, purpose, operatorId, binding, at, expiresAt });
  }

  /** Exactly the console's origin: an answer made on the app's pages (or anywhere else) is refused. */
  function consoleOrigin(clientDataJSON: string): string {
    if (answerOrigin(clientDataJSON) !== webauthn.origin) throw rejected('origin');
    return webauthn.origin;
  }

  const consumer =
    (purpose: OperatorChallengePurpose, operatorId: string | null, binding: string, state: { consumed: boolean }) =>
    async (challenge: string) => {
      state.consumed = await consumeOperatorChallenge(db, challenge, purpose, operatorId, binding, now());
      return state.consumed;
    };

  return {
    async list(operatorId) {
      const enrolledAt = (await findOperatorById(db, operatorId))?.totp_confirmed_at ?? null;
      return (await listOperatorPasskeys(db, operatorId)).map((row) => view(row, enrolledAt));
    },

    async registrationOptions(operator, sessionId) {
      const existing = await listOperatorPasskeys(db, operator.id);
      if (existing.length >= MAX_PASSKEYS) throw new AppError('PASSKEY_LIMIT', `At most ${MAX_PASSKEYS} passkeys`);
      const options = await generateRegistrationOptions({
        rpName: webauthn.rpName,
        rpID: webauthn.rpId,
        userName: `ops:${operator.name}`,
        // The user handle is the operator id: a sign-in checks it against the credential's owner.
        userID: new TextEncoder().encode(operator.id),
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: p.transports as never })),
        // Discoverable (sign-in without a name) and user-verifying (a PIN or biometric: both factors).
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        timeout: CHALLENGE_TTL_MS,
        supportedAlgorithmIDs: ALGORITHM_IDS,
      });
      await storeChallenge(options.challenge, 'register', operator.id, sessionId);
      return options;
    },

    async register(operator, sessionId, { name, response }, ip) {
      const expectedOrigin = consoleOrigin(response.response.clientDataJSON);
      const state = { consumed: false };
      const info = await verifiedRegistration({
        response,
        expectedChallenge: consumer('register', operator.id, sessionId, state),
        expectedOrigin,
        rpId: webauthn.rpId,
        state,
      });
      const at = now();
      return db.transaction().execute(async (trx) => {
        await lockOperator(trx, operator.id);
        if ((await listOperatorPasskeys(trx, operator.id)).length >= MAX_PASSKEYS)
          throw new AppError('PASSKEY_LIMIT', `At most ${MAX_PASSKEYS} passkeys`);
        if (await findOperatorPasskey(trx, info.credential.id))
          throw new AppError('PASSKEY_EXISTS', 'This passkey is already registered');
        const row = await insertOperatorPasskey(trx, {
          operator_id: operator.id,
          credential_id: info.credential.id,
          public_key: Buffer.from(info.credential.publicKey),
          sign_count: String(info.credential.counter),
          transports: (info.credential.transports ?? []).slice(0, 8),
          device_type: info.credentialDeviceType,
          backed_up: info.credentialBackedUp,
          name: name.trim(),
          created_at: at,
        });
        await appendAudit(trx, {
          event: 'operator_passkey_added',
          at,
          ip,
          details: { operator: operator.name, operatorId: operator.id, passkeyId: row.id, sessionId },
        });
        return view(row, row.created_at);
      });
    },

    async remove(operator, id, ip) {
      const at = now();
      await db.transaction().execute(async (trx) => {
        const row = await deleteOperatorPasskey(trx, operator.id, id);
        if (!row) throw new AppError('PASSKEY_NOT_FOUND', 'No such passkey');
        await appendAudit(trx, {
          event: 'operator_passkey_removed',
          at,
          ip,
          details: { operator: operator.name, operatorId: operator.id, passkeyId: id },
        });
      });
    },

    ...operatorPasskeySignIn({ db, now, webauthn }, { storeChallenge, consoleOrigin, consumer }),
  };
}
