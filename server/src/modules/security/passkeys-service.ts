import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ChallengePurpose } from '../../db/schema-passkeys.ts';
import { AppError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { Client } from '../auth/client.ts';
import { verifyAssertion } from './assertion-verify.ts';
import { checkedAssertion, userHandleOf } from './passkey-answers.ts';
import {
  CHALLENGE_TTL_MS,
  ceremonyTools,
  challengeInvalid,
  endOthers,
  type PasskeyDeps,
  type PasskeyView,
  rejected,
  view,
} from './passkey-ceremony.ts';
import { passkeyRegistration } from './passkey-registration.ts';
import { suspendRegressedPasskey } from './passkey-suspension.ts';
import {
  countPasskeys,
  deletePasskey,
  findPasskeyByCredentialId,
  listPasskeys,
  lockUserFactors,
  recordPasskeyUse,
  renamePasskey,
} from './passkeys-repository.ts';
import { queueSecurityNotice } from './security-mails.ts';

export { CHALLENGE_TTL_MS, MAX_PASSKEYS, type PasskeyView } from './passkey-ceremony.ts';

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

/** Users' passkeys: registration (passkey-registration.ts), listing, removal, and the answers to challenges. */
export function createPasskeys(deps: PasskeyDeps): Passkeys {
  const { db, now, webauthn } = deps;
  const tools = ceremonyTools(deps);
  const registration = passkeyRegistration(deps, tools);

  return {
    list: async (userId) => (await listPasskeys(db, userId)).map(view),
    count: (userId) => countPasskeys(db, userId),

    registrationOptions: registration.registrationOptions,
    register: registration.register,

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
      await tools.storeChallenge(options.challenge, purpose, purpose === 'login' ? null : userId, binding);
      return options;
    },

    async verifyAssertion(client, response, purpose, userId, binding) {
      const expectedOrigin = tools.ourOrigin(response.response.clientDataJSON);
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
            expectedChallenge: tools.challengeConsumer(purpose, challengeUser, binding, state),
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
