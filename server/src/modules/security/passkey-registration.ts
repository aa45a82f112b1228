import {
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { Client } from '../auth/client.ts';
import { revokePendingSessions } from '../auth/sessions-repository.ts';
import {
  ALGORITHM_IDS,
  type CeremonyTools,
  CHALLENGE_TTL_MS,
  challengeInvalid,
  endOthers,
  MAX_PASSKEYS,
  type PasskeyDeps,
  type PasskeyView,
  verifiedRegistration,
  view,
} from './passkey-ceremony.ts';
import {
  countPasskeys,
  findPasskeyByCredentialId,
  insertPasskey,
  listPasskeys,
  lockUserFactors,
} from './passkeys-repository.ts';
import { queueSecurityNotice } from './security-mails.ts';

/** A user's passkey registration: the options, then the browser's answer verified and stored (passkeys-service.ts). */
export function passkeyRegistration(deps: PasskeyDeps, tools: CeremonyTools) {
  const { db, now, webauthn } = deps;

  async function registrationOptions(
    userId: string,
    username: string,
    binding: string,
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await listPasskeys(db, userId);
    if (existing.length >= MAX_PASSKEYS) throw new AppError('PASSKEY_LIMIT', `At most ${MAX_PASSKEYS} passkeys`);
    const options = await generateRegistrationOptions({
      rpName: webauthn.rpName,
      rpID: webauthn.rpId,
      userName: username,
      // The user handle is the account id: a password-less sign-in checks it against the credential's owner.
      userID: new TextEncoder().encode(userId),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: p.transports })),
      // Discoverable (sign-in without a user name) and user-verifying (a PIN or biometric: both factors).
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      timeout: CHALLENGE_TTL_MS,
      supportedAlgorithmIDs: ALGORITHM_IDS,
    });
    await tools.storeChallenge(options.challenge, 'register', userId, binding);
    return options;
  }

  async function register(
    client: Client,
    userId: string,
    {
      response,
      name,
      endOtherSessions,
    }: { response: RegistrationResponseJSON; name: string; endOtherSessions?: boolean | undefined },
    onFirstFactor: (trx: Kysely<Database>, at: Date) => Promise<string[] | null>,
  ): Promise<{ passkey: PasskeyView; recoveryCodes: string[] | null }> {
    const expectedOrigin = tools.ourOrigin(response.response.clientDataJSON);
    if (client.sessionId === null) throw challengeInvalid();
    const state = { consumed: false };
    const info = await verifiedRegistration({
      response,
      expectedChallenge: tools.challengeConsumer('register', userId, client.sessionId, state),
      expectedOrigin,
      rpId: webauthn.rpId,
      state,
    });
    const at = now();
    const result = await db.transaction().execute(async (trx) => {
      await lockUserFactors(trx, userId);
      const count = await countPasskeys(trx, userId);
      if (count >= MAX_PASSKEYS) throw new AppError('PASSKEY_LIMIT', `At most ${MAX_PASSKEYS} passkeys`);
      if (await findPasskeyByCredentialId(trx, info.credential.id))
        throw new AppError('PASSKEY_EXISTS', 'This passkey is already registered');
      const row = await insertPasskey(trx, {
        user_id: userId,
        credential_id: info.credential.id,
        public_key: Buffer.from(info.credential.publicKey),
        sign_count: String(info.credential.counter),
        transports: (info.credential.transports ?? []).slice(0, 8),
        device_type: info.credentialDeviceType,
        backed_up: info.credentialBackedUp,
        aaguid: info.aaguid,
        name: name.trim(),
        created_at: at,
      });
      const recoveryCodes = await onFirstFactor(trx, at);
      await endOthers(trx, client, userId, at, endOtherSessions);
      // Even when the other sessions stay: a sign-in still waiting was made without this factor.
      await revokePendingSessions(trx, userId, at);
      // 'passkey_added' starts the 24 h outflow hold (withdrawals/outflow-holds.ts), as a new app does.
      await appendAudit(trx, { event: 'passkey_added', at, userId, ip: client.ip, details: { passkeyId: row.id } });
      await queueSecurityNotice(trx, userId, 'passkey_added', at, deps.publicOrigin);
      return { passkey: view(row), recoveryCodes };
    });
    deps.onMailQueued?.();
    return result;
  }

  return { registrationOptions, register };
}
