import { type RegistrationResponseJSON, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ChallengePurpose } from '../../db/schema-passkeys.ts';
import { AppError } from '../../errors/app-error.ts';
import type { Client } from '../auth/client.ts';
import { revokeUserSessions } from '../auth/sessions-repository.ts';
import { answerOrigin } from './passkey-answers.ts';
import { consumeChallenge, insertChallenge, type PasskeyRow } from './passkeys-repository.ts';
import { weakRsaCredentialKey } from './rsa-exponent.ts';
import { originAllowed, type WebAuthnOptions } from './webauthn-config.ts';

/** What the passkey ceremonies share (users': passkeys-service.ts, passkey-registration.ts; operators'): limits, answers, challenges, the registration check. */

/** At most this many passkeys per account (issue 31). */
export const MAX_PASSKEYS = 10;
/** A ceremony's challenge lives this long (the browser's own timeout is the same). */
export const CHALLENGE_TTL_MS = 5 * 60_000;

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

export const view = (row: PasskeyRow): PasskeyView => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
  synced: row.device_type === 'multiDevice',
  backedUp: row.backed_up,
  transports: row.transports,
  suspended: row.suspended_at !== null,
});

/**
 * One fixed message whatever the reason (unknown credential, another account's, signature, origin):
 * the client learns nothing about which credentials exist; the reason stays on the server (`cause`).
 */
export const rejected = (why: string) =>
  new AppError('PASSKEY_REJECTED', 'The passkey was not accepted', { cause: new Error(why) });
export const challengeInvalid = () =>
  new AppError('PASSKEY_CHALLENGE_INVALID', 'The passkey request expired or was already used; start again');

/**
 * EdDSA, ES256, RS256: what platform and roaming authenticators offer. Named, not the library's
 * default, which probes the runtime for ML-DSA (an experimental Web Crypto API in Node 24 that warns
 * on every process start) and would otherwise let the set change with the Node version.
 */
export const ALGORITHM_IDS = [-8, -7, -257];

/**
 * A new passkey's registration answer verified as users' and operators' ceremonies both need it:
 * user-verifying, one of ALGORITHM_IDS, the challenge consumed by `expectedChallenge` (which sets
 * `state.consumed`): PASSKEY_CHALLENGE_INVALID when it was not, else PASSKEY_REJECTED. An RSA key with
 * another exponent than 65537 (e = 1, e = 1 + λ(n)) "verifies" forged answers, and a short or even
 * modulus is weak: never stored (rsa-exponent.ts).
 */
export async function verifiedRegistration(input: {
  response: RegistrationResponseJSON;
  expectedChallenge: (challenge: string) => Promise<boolean>;
  expectedOrigin: string;
  rpId: string;
  state: { consumed: boolean };
}) {
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: input.expectedChallenge,
      expectedOrigin: input.expectedOrigin,
      expectedRPID: input.rpId,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHM_IDS,
    });
  } catch (err) {
    if (!input.state.consumed) throw challengeInvalid();
    throw rejected((err as Error).message);
  }
  if (!verified.verified) throw rejected('registration');
  const info = verified.registrationInfo;
  if (weakRsaCredentialKey(info.credential.publicKey)) throw rejected('weak RSA key');
  return info;
}

/**
 * A factor change ends every other session of the account unless the user keeps them (ASVS 7.4.3, as
 * the password change does): a hijacked session that added a passkey does not outlive its removal.
 */
export async function endOthers(
  trx: Kysely<Database>,
  client: Client,
  userId: string,
  at: Date,
  end: boolean | undefined,
) {
  if (end === false) return;
  await revokeUserSessions(trx, userId, at, client.sessionId ?? undefined);
}

export interface PasskeyDeps {
  db: Kysely<Database>;
  now: () => Date;
  webauthn: WebAuthnOptions;
  /** Wakes the outbox worker after a notice was committed. */
  onMailQueued?: () => void;
  /** The app's public origin: every notice (added, removed, suspended) carries a freeze link. */
  publicOrigin?: string;
}

/** The challenge store and the origin check of one service instance. */
export function ceremonyTools({ db, now, webauthn }: PasskeyDeps) {
  return {
    async storeChallenge(challenge: string, purpose: ChallengePurpose, userId: string | null, binding: string) {
      const at = now();
      const expiresAt = new Date(at.getTime() + CHALLENGE_TTL_MS);
      await insertChallenge(db, { challenge, purpose, userId, binding, at, expiresAt });
    },

    /** The origin the answer was made on, if it is ours; the check the library repeats on the same value. */
    ourOrigin(clientDataJSON: string): string {
      const origin = answerOrigin(clientDataJSON);
      if (origin === null || !originAllowed(webauthn, origin)) throw rejected('origin');
      return origin;
    },

    /** The library calls this with the answer's challenge: consumed here, once, before the signature is checked. */
    challengeConsumer(purpose: ChallengePurpose, userId: string | null, binding: string, state: { consumed: boolean }) {
      return async (challenge: string) => {
        state.consumed = await consumeChallenge(db, challenge, purpose, userId, binding, now());
        return state.consumed;
      };
    },
  };
}

export type CeremonyTools = ReturnType<typeof ceremonyTools>;
