import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ChallengePurpose } from '../../db/schema-passkeys.ts';
import { AppError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { Client } from '../auth/client.ts';
import { revokePendingSessions, revokeUserSessions } from '../auth/sessions-repository.ts';
import { verifyAssertion } from './assertion-verify.ts';
import { answerOrigin, checkedAssertion, userHandleOf } from './passkey-answers.ts';
import { suspendRegressedPasskey } from './passkey-suspension.ts';
import {
  consumeChallenge,
  countPasskeys,
  deletePasskey,
  findPasskeyByCredentialId,
  insertChallenge,
  insertPasskey,
  listPasskeys,
  lockUserFactors,
  type PasskeyRow,
  recordPasskeyUse,
  renamePasskey,
} from './passkeys-repository.ts';
import { weakRsaCredentialKey } from './rsa-exponent.ts';
import { queueSecurityNotice } from './security-mails.ts';
import { originAllowed, type WebAuthnOptions } from './webauthn-config.ts';

/** At most this many passkeys per account (issue 31). */
export const MAX_PASSKEYS = 10;
/** A ceremony's challenge lives this long (the browser's own timeout is the same). */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/**
 * EdDSA, ES256, RS256: what platform and roaming authenticators offer. Named, not the library's
 * default, which probes the runtime for ML-DSA (an experimental Web Crypto API in Node 24 that warns
 * on every process start) and would otherwise let the set change with the Node version.
 */
const ALGORITHM_IDS = [-8, -7, -257];

export interface PasskeyView {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** A synced passkey (multi-device) or one bound to this authenticator. */
  synced: boolean;
  backedUp: boolean;
  transports: string[];
  /** Its counter went backwards (a cloned key): refused until removed. */
  suspended: boolean;
}

const view = (row: PasskeyRow): PasskeyView => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
  synced: row.device_type === 'multiDevice',
  backedUp: row.backed_up,
  transports: row.transports,
  suspended: row.suspended_at !== null,
});

export type AssertionPurpose = Exclude<ChallengePurpose, 'register'>;

export interface Passkeys {
  list(userId: string): Promise<PasskeyView[]>;
  count(userId: string): Promise<number>;
  /** `binding`: the signed-in session's id (the answer must come back on it). */
  registrationOptions(
    userId: string,
    username: string,
    binding: string,
  ): Promise<PublicKeyCredentialCreationOptionsJSON>;
  /**
   * Verifies the browser's answer and stores the passkey. `onFirstFactor` runs in the same transaction
   * when it is the account's first factor (recovery codes are issued then, shown once).
   */
  register(
    client: Client,
    userId: string,
    input: { response: RegistrationResponseJSON; name: string; endOtherSessions?: boolean | undefined },
    onFirstFactor: (trx: Kysely<Database>, at: Date) => Promise<string[] | null>,
  ): Promise<{ passkey: PasskeyView; recoveryCodes: string[] | null }>;
  rename(userId: string, id: string, name: string): Promise<PasskeyView>;
  /** Removes one; `onLastFactor` runs in the same transaction when no factor is left. */
  remove(
    client: Client,
    userId: string,
    id: string,
    onLastFactor: (trx: Kysely<Database>) => Promise<void>,
    options?: { endOtherSessions?: boolean | undefined },
  ): Promise<void>;
  /**
   * `login`: any discoverable passkey (userId null); `factor`/`step_up`/`reauth`: one of `userId`'s.
   * `binding`: where the answer must come back: the session's id, or the hash of the sign-in nonce.
   */
  assertionOptions(
    purpose: AssertionPurpose,
    userId: string | null,
    binding: string,
  ): Promise<PublicKeyCredentialRequestOptionsJSON>;
  /**
   * Checks an answer to a challenge of `purpose`, issued to `binding` (and of `userId` unless a
   * sign-in); the user and passkey.
   */
  verifyAssertion(
    client: Client,
    response: AuthenticationResponseJSON,
    purpose: AssertionPurpose,
    userId: string | null,
    binding: string,
  ): Promise<{ userId: string; passkeyId: string }>;
}

/**
 * A factor change ends every other session of the account unless the user keeps them (ASVS 7.4.3, as
 * the password change does): a hijacked session that added a passkey does not outlive its removal.
 */
async function endOthers(trx: Kysely<Database>, client: Client, userId: string, at: Date, end: boolean | undefined) {
  if (end === false) return;
  await revokeUserSessions(trx, userId, at, client.sessionId ?? undefined);
}

/**
 * One fixed message whatever the reason (unknown credential, another account's, signature, origin):
 * the client learns nothing about which credentials exist; the reason stays on the server (`cause`).
 */
const rejected = (why: string) =>
  new AppError('PASSKEY_REJECTED', 'The passkey was not accepted', { cause: new Error(why) });
const challengeInvalid = () =>
  new AppError('PASSKEY_CHALLENGE_INVALID', 'The passkey request expired or was already used; start again');

export function createPasskeys(deps: {
  db: Kysely<Database>;
  now: () => Date;
  webauthn: WebAuthnOptions;
  /** Wakes the outbox worker after a notice was committed. */
  onMailQueued?: () => void;
  /** The app's public origin: every notice (added, removed, suspended) carries a freeze link. */
  publicOrigin?: string;
}): Passkeys {
  const { db, now, webauthn } = deps;

  async function storeChallenge(challenge: string, purpose: ChallengePurpose, userId: string | null, binding: string) {
    const at = now();
    const expiresAt = new Date(at.getTime() + CHALLENGE_TTL_MS);
    await insertChallenge(db, { challenge, purpose, userId, binding, at, expiresAt });
  }

  /** The origin the answer was made on, if it is ours; the check the library repeats on the same value. */
  function ourOrigin(clientDataJSON: string): string {
    const origin = answerOrigin(clientDataJSON);
    if (origin === null || !originAllowed(webauthn, origin)) throw rejected('origin');
    return origin;
  }

  /** The library calls this with the answer's challenge: consumed here, once, before the signature is checked. */
  function challengeConsumer(
    purpose: ChallengePurpose,
    userId: string | null,
    binding: string,
    state: { consumed: boolean },
  ) {
    return async (challenge: string) => {
      state.consumed = await consumeChallenge(db, challenge, purpose, userId, binding, now());
      return state.consumed;
    };
  }

  return {
    list: async (userId) => (await listPasskeys(db, userId)).map(view),
    count: (userId) => countPasskeys(db, userId),

    async registrationOptions(userId, username, binding) {
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
      await storeChallenge(options.challenge, 'register', userId, binding);
      return options;
    },

    async register(client, userId, { response, name, endOtherSessions }, onFirstFactor) {
      const expectedOrigin = ourOrigin(response.response.clientDataJSON);
      if (client.sessionId === null) throw challengeInvalid();
      const state = { consumed: false };
      let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
      try {
        verified = await verifyRegistrationResponse({
          response,
          expectedChallenge: challengeConsumer('register', userId, client.sessionId, state),
          expectedOrigin,
          expectedRPID: webauthn.rpId,
          requireUserVerification: true,
          supportedAlgorithmIDs: ALGORITHM_IDS,
        });
      } catch (err) {
        if (!state.consumed) throw challengeInvalid();
        throw rejected((err as Error).message);
      }
      if (!verified.verified) throw rejected('registration');
      const info = verified.registrationInfo;
      // An RSA key with e = 1 (or another weak exponent) "verifies" forged answers: never stored.
      if (weakRsaCredentialKey(info.credential.publicKey)) throw rejected('weak RSA exponent');
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
    },

    async rename(userId, id, name) {
      if (!(await renamePasskey(db, userId, id, name.trim())))
        throw new AppError('PASSKEY_NOT_FOUND', 'No such passkey');
      const row = (await listPasskeys(db, userId)).find((p) => p.id === id);
      if (!row) throw new AppError('PASSKEY_NOT_FOUND', 'No such passkey');
      return view(row);
    },

    async remove(client, userId, id, onLastFactor, options = {}) {
      const at = now();
      await db.transaction().execute(async (trx) => {
        await lockUserFactors(trx, userId);
        const row = await deletePasskey(trx, userId, id);
        if (!row) throw new AppError('PASSKEY_NOT_FOUND', 'No such passkey');
        await onLastFactor(trx);
        await endOthers(trx, client, userId, at, options.endOtherSessions);
        await appendAudit(trx, { event: 'passkey_removed', at, userId, ip: client.ip, details: { passkeyId: id } });
        await queueSecurityNotice(trx, userId, 'passkey_removed', at, deps.publicOrigin);
      });
      deps.onMailQueued?.();
    },

    async assertionOptions(purpose, userId, binding) {
      // A suspended passkey (its counter went backwards) is not offered.
      const mine = userId === null ? [] : (await listPasskeys(db, userId)).filter((p) => p.suspended_at === null);
      if (userId !== null && mine.length === 0) throw new AppError('PASSKEY_NOT_FOUND', 'No passkey on this account');
      const options = await generateAuthenticationOptions({
        rpID: webauthn.rpId,
        allowCredentials: mine.map((p) => ({ id: p.credential_id, transports: p.transports })),
        userVerification: 'required',
        timeout: CHALLENGE_TTL_MS,
      });
      await storeChallenge(options.challenge, purpose, purpose === 'login' ? null : userId, binding);
      return options;
    },

    async verifyAssertion(client, response, purpose, userId, binding) {
      const expectedOrigin = ourOrigin(response.response.clientDataJSON);
      const row = await findPasskeyByCredentialId(db, response.id);
      // The same answer for an unknown passkey and another account's: nothing tells which exist.
      if (!row || (userId !== null && row.user_id !== userId)) throw rejected('credential');
      const handle = userHandleOf(response);
      if (handle !== null && handle !== row.user_id) throw rejected('user handle');
      if (row.suspended_at !== null) throw rejected('suspended');
      const state = { consumed: false };
      const challengeUser = purpose === 'login' ? null : row.user_id;
      const result = await checkedAssertion(
        () =>
          verifyAssertion({
            response,
            expectedChallenge: challengeConsumer(purpose, challengeUser, binding, state),
            expectedOrigin,
            expectedRPID: webauthn.rpId,
            credential: {
              id: row.credential_id,
              publicKey: new Uint8Array(row.public_key),
              counter: Number(row.sign_count),
              transports: row.transports,
            },
            requireUserVerification: true,
          }),
        state,
      );
      if (result.kind === 'challenge') throw challengeInvalid();
      if (result.kind === 'rejected') throw rejected(result.why);
      const at = now();
      // verifyAssertion refuses a validly signed answer's counter at or below the stored one (an unsigned answer is a plain
      // refusal, whatever its counter); the conditional update refuses the loser of two concurrent answers with one counter.
      if (result.kind === 'counter' || !(await recordPasskeyUse(db, row.id, result.newCounter, result.backedUp, at))) {
        if (await suspendRegressedPasskey(db, client, row, purpose, at, deps.publicOrigin)) deps.onMailQueued?.();
        throw new AppError('PASSKEY_COUNTER_REGRESSED', 'The passkey counter went backwards');
      }
      return { userId: row.user_id, passkeyId: row.id };
    },
  };
}
