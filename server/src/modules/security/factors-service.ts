import { randomBytes } from 'node:crypto';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { Client } from '../auth/client.ts';
import { revokePendingSessions } from '../auth/sessions-repository.ts';
import { retryAfterSeconds } from '../auth/throttle-schedule.ts';
import type { ThrottleStore } from '../auth/throttles.ts';
import type { Sealer } from '../payment-methods/sealing.ts';
import { createFactorCharges, type RecoveryCodeMatch } from './factor-charges.ts';
import {
  acceptTotpStep,
  deleteRecoveryCodes,
  deleteTotp,
  findTotp,
  hasSecondFactor,
  hasTotp,
  insertRecoveryCodes,
  unusedRecoveryCodes,
  upsertPendingTotp,
} from './factors-repository.ts';
import type { FactorAttempt } from './login-factor-repository.ts';
import { lockUserFactors } from './passkeys-repository.ts';
import type { Passkeys } from './passkeys-service.ts';
import { queueSecurityNotice } from './security-mails.ts';
import {
  hashRecoveryCode,
  matchTotpStep,
  newRecoveryCode,
  newTotpSecret,
  RECOVERY_CODE_COUNT,
  totpUri,
} from './totp.ts';

export {
  factorRefusal,
  factorThrottled,
  factorThrottledUnchecked,
  factorThrottleKey,
  type RecoveryCodeMatch,
  refusedUnchecked,
} from './factor-charges.ts';

/** What proves the second factor: a code of the authenticator app, one recovery code, or a passkey's answer. */
export interface FactorInput {
  totpCode?: string | undefined;
  recoveryCode?: string | undefined;
  /** The answer to a challenge from POST …/passkeys/challenge (or /auth/login/factor/passkey-options). */
  passkey?: AuthenticationResponseJSON | undefined;
}

export interface FactorStatus {
  totp: boolean;
  /** How many passkeys the account has. */
  passkeys: number;
  recoveryCodesLeft: number;
}

/** How a factor was proved (login history). */
export const factorMethod = (input: FactorInput) =>
  input.passkey ? 'password+passkey' : input.recoveryCode ? 'password+recovery_code' : 'password+totp';

export interface SecondFactors {
  status(userId: string): Promise<FactorStatus>;
  has(userId: string): Promise<boolean>;
  /** A new secret and its otpauth:// URI; the factor is off until `confirmTotp`. */
  startTotp(client: Client, userId: string, account: string): Promise<{ secret: string; uri: string }>;
  /** Turns the app on with its first code; returns the recovery codes (shown once). */
  confirmTotp(client: Client, userId: string, code: string): Promise<{ recoveryCodes: string[] }>;
  /** Turns the app off (needs a current code or a recovery code); voids the recovery codes. */
  disableTotp(client: Client, userId: string, input: FactorInput): Promise<void>;
  regenerateRecoveryCodes(client: Client, userId: string): Promise<{ recoveryCodes: string[] }>;
  /**
   * Checks the factor of a user who has one (FACTOR_REQUIRED when none is given). Each check is
   * charged on the user's factor throttle before it is verified, as passwords are, so concurrent
   * guesses cannot exceed the schedule; an accepted code cannot be used again.
   */
  verify(client: Client, userId: string, input: FactorInput, during: string): Promise<void>;
  /**
   * A sign-in's recovery code: charged and matched as `verify` does (a locked key refused unchecked, a
   * wrong code audited and refused here), but not spent: see RecoveryCodeMatch.
   */
  matchRecoveryCode(client: Client, userId: string, typed: string): Promise<RecoveryCodeMatch>;
  /**
   * The time step the code matches under the attempt's secret (±1 step), or null: for the TOTP sign-in
   * step (login-factor-totp.ts), which charges and accepts it itself. Only an attempt taken under the
   * factor throttle's row lock (login-factor-repository lockFactorAttempt) is accepted, and a locked key
   * matches nothing: no caller gets an unthrottled code check (review L4).
   */
  totpStepOf(attempt: FactorAttempt, code: string, at: Date): number | null;
  /** In a passkey's registration: recovery codes when the account has none left (a first factor); else null. */
  recoveryCodesIfNone(trx: Kysely<Database>, userId: string, at: Date): Promise<string[] | null>;
  /** In a passkey's removal: the recovery codes go when no factor is left. */
  voidRecoveryCodesIfNoFactor(trx: Kysely<Database>, userId: string): Promise<void>;
}

const binding = (userId: string) => `totp:${userId}`;

/**
 * Which challenge answers which check: a sign-in's second step, a re-authentication, or a step-up on
 * money or factor changes; an answer given for one cannot be spent on another.
 */
const passkeyPurpose = (during: string) => (during === 'login' ? 'factor' : during === 'reauth' ? 'reauth' : 'step_up');

export function createSecondFactors(deps: {
  db: Kysely<Database>;
  now: () => Date;
  throttles: ThrottleStore;
  sealer: Sealer;
  passkeys: Passkeys;
  onMailQueued?: () => void;
  /** The app's public origin, for the freeze link of the security mails. */
  publicOrigin?: string;
}): SecondFactors {
  const { db, now, sealer, passkeys } = deps;
  const openSecret = (userId: string, sealed: Buffer) => {
    const secret = sealer.open(sealed, binding(userId)).secret;
    if (!secret) throw new Error('sealed TOTP secret without a secret');
    return secret;
  };
  const { charged, checkRecoveryCode, matchRecoveryCode } = createFactorCharges(deps);

  /** 'ok', 'used' (a replayed step) or 'wrong'. `confirm`: the enrolment's first code. */
  async function checkTotp(userId: string, code: string, at: Date, confirm: boolean) {
    const row = await findTotp(db, userId);
    if (!row || (row.confirmed_at === null) !== confirm) return 'wrong';
    const step = matchTotpStep(openSecret(userId, row.secret_sealed), code.trim(), at);
    if (step === null) return 'wrong';
    return (await acceptTotpStep(db, userId, step, at, confirm)) ? 'ok' : 'used';
  }

  async function issueRecoveryCodes(trx: Kysely<Database>, userId: string, at: Date): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await deleteRecoveryCodes(trx, userId);
    await insertRecoveryCodes(
      trx,
      userId,
      codes.map((code) => {
        const salt = randomBytes(16);
        return { salt, hash: hashRecoveryCode(salt, code) };
      }),
      at,
    );
    return codes;
  }

  /** A passkey's answer: not a guessable secret (nothing to throttle), but a refusal is recorded. */
  async function verifyPasskey(client: Client, userId: string, answer: AuthenticationResponseJSON, during: string) {
    try {
      // Bound to the session that asked for the challenge (the pending one at a sign-in's second step).
      if (client.sessionId === null) throw new AppError('PASSKEY_CHALLENGE_INVALID', 'No session asked for this');
      await passkeys.verifyAssertion(client, answer, passkeyPurpose(during), userId, client.sessionId);
    } catch (err) {
      const result = err instanceof AppError ? err.code : 'error';
      await appendAudit(db, { event: 'factor_failed', at: now(), userId, ip: client.ip, details: { during, result } });
      throw err;
    }
  }

  const verify: SecondFactors['verify'] = async (client, userId, input, during) => {
    if (input.passkey) return verifyPasskey(client, userId, input.passkey, during);
    const totpCode = input.totpCode?.trim();
    const recoveryCode = input.recoveryCode?.trim();
    if (!totpCode && !recoveryCode)
      throw new AppError('FACTOR_REQUIRED', 'The code of the authenticator app is required');
    await charged(client, userId, during, (at) =>
      recoveryCode ? checkRecoveryCode(client, userId, recoveryCode, at) : checkTotp(userId, totpCode ?? '', at, false),
    );
  };

  return {
    async status(userId) {
      const [totp, count, codes] = await Promise.all([
        hasTotp(db, userId),
        passkeys.count(userId),
        unusedRecoveryCodes(db, userId),
      ]);
      return { totp, passkeys: count, recoveryCodesLeft: totp || count > 0 ? codes.length : 0 };
    },
    has: (userId) => hasSecondFactor(db, userId),

    async startTotp(client, userId, account) {
      const secret = newTotpSecret();
      const at = now();
      await db.transaction().execute(async (trx) => {
        if (!(await upsertPendingTotp(trx, userId, sealer.seal({ secret }, binding(userId)), at)))
          throw new AppError('TOTP_ALREADY_ON', 'An authenticator app is already on');
        await appendAudit(trx, { event: 'totp_enrolment_started', at, userId, ip: client.ip });
      });
      return { secret, uri: totpUri(secret, account) };
    },

    async confirmTotp(client, userId, code) {
      const row = await findTotp(db, userId);
      if (!row || row.confirmed_at !== null)
        throw new AppError(row ? 'TOTP_ALREADY_ON' : 'TOTP_NOT_ENROLLED', 'No authenticator set-up is waiting');
      await charged(client, userId, 'totp_enrolment', (at) => checkTotp(userId, code, at, true));
      const at = now();
      const recoveryCodes = await db.transaction().execute(async (trx) => {
        await lockUserFactors(trx, userId);
        const codes = await issueRecoveryCodes(trx, userId, at);
        // A sign-in waiting now was made without the app: it may not be completed without it.
        await revokePendingSessions(trx, userId, at);
        // 'totp_enabled' starts the 24 h outflow hold (withdrawals/outflow-holds.ts).
        await appendAudit(trx, { event: 'totp_enabled', at, userId, ip: client.ip });
        await queueSecurityNotice(trx, userId, 'totp_enabled', at, deps.publicOrigin);
        return codes;
      });
      deps.onMailQueued?.();
      return { recoveryCodes };
    },

    async disableTotp(client, userId, input) {
      if (!(await hasTotp(db, userId))) throw new AppError('TOTP_NOT_ENROLLED', 'No authenticator app is on');
      await verify(client, userId, input, 'totp_removal');
      const at = now();
      await db.transaction().execute(async (trx) => {
        await lockUserFactors(trx, userId);
        await deleteTotp(trx, userId);
        // With a passkey left the codes stay: they are the way back in when the passkey is lost.
        if (!(await hasSecondFactor(trx, userId))) await deleteRecoveryCodes(trx, userId);
        await appendAudit(trx, { event: 'totp_disabled', at, userId, ip: client.ip });
        await queueSecurityNotice(trx, userId, 'totp_disabled', at, deps.publicOrigin);
      });
      deps.onMailQueued?.();
    },

    async regenerateRecoveryCodes(client, userId) {
      if (!(await hasSecondFactor(db, userId))) throw new AppError('TOTP_NOT_ENROLLED', 'No second factor is on');
      const at = now();
      const recoveryCodes = await db.transaction().execute(async (trx) => {
        const codes = await issueRecoveryCodes(trx, userId, at);
        await revokePendingSessions(trx, userId, at);
        await appendAudit(trx, { event: 'recovery_codes_generated', at, userId, ip: client.ip });
        return codes;
      });
      return { recoveryCodes };
    },

    verify,
    matchRecoveryCode,

    totpStepOf(attempt, code, at) {
      if (attempt.secretSealed === null || retryAfterSeconds(attempt.throttle, at) > 0) return null;
      return matchTotpStep(openSecret(attempt.userId, attempt.secretSealed), code.trim(), at);
    },

    async recoveryCodesIfNone(trx, userId, at) {
      if ((await unusedRecoveryCodes(trx, userId)).length > 0) return null;
      return issueRecoveryCodes(trx, userId, at);
    },

    async voidRecoveryCodesIfNoFactor(trx, userId) {
      if (!(await hasSecondFactor(trx, userId))) await deleteRecoveryCodes(trx, userId);
    },
  };
}
