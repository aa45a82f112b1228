import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { Client } from '../auth/client.ts';
import type { ThrottleState } from '../auth/throttle-schedule.ts';
import { accountLoginPolicy, attemptsLeft, retryAfterSeconds } from '../auth/throttle-schedule.ts';
import type { ThrottleStore } from '../auth/throttles.ts';
import { unusedRecoveryCodes, useRecoveryCode } from './factors-repository.ts';
import { queueSecurityNotice } from './security-mails.ts';
import { recoveryCodeMatches } from './totp.ts';

/**
 * A sign-in's recovery code, matched but not spent (login-factor.ts): the sign-in spends it in the
 * transaction that ends the pending sign-in, so one that ended meanwhile (expired in the sessions lock's
 * queue, or won by a concurrent answer) rolls it back: the code stays unused and no notice is queued
 * (review L2). Its charge was written before, on its own: a rollback cannot take it back.
 */
export interface RecoveryCodeMatch {
  /** Marks it used, with its audit and the owner's notice, in `trx`; false when a concurrent use spent it first. */
  spend(trx: Kysely<Database>): Promise<boolean>;
  /** After the commit of a spent code: the throttle cleared and the mailer woken, as `verify` does. */
  spent(): Promise<void>;
  /** A concurrent use spent it first: audited as `verify`'s 'used' (the charge stays); the refusal to throw. */
  refuseUsed(): Promise<AppError>;
}

export const factorThrottleKey = (userId: string) => `factor:${userId}`;

export function factorThrottled(retryAfter: number): AppError {
  return new AppError('FACTOR_THROTTLED', `Too many wrong codes; retry in ${retryAfter} s`, {
    details: { retryAfterSeconds: retryAfter },
  });
}

/**
 * The refusals of a locked key, given before any check: the login history records them as 'throttled'
 * (capped per hour), not as failures (review L3). A check whose own charge locked the key answers
 * FACTOR_THROTTLED too, but it was checked: a failure.
 */
const uncheckedRefusals = new WeakSet<Error>();
export function factorThrottledUnchecked(retryAfter: number): AppError {
  const err = factorThrottled(retryAfter);
  uncheckedRefusals.add(err);
  return err;
}
export const refusedUnchecked = (err: unknown) => err instanceof Error && uncheckedRefusals.has(err);

/** The answer to a charged check that failed ('wrong', or 'used': a replayed step), given the state its charge wrote. */
export function factorRefusal(result: string, charged: ThrottleState, at: Date): AppError {
  const locked = retryAfterSeconds(charged, at);
  if (locked > 0) return factorThrottled(locked);
  if (result === 'used') return new AppError('FACTOR_CODE_USED', 'This code was already used');
  return new AppError('WRONG_FACTOR_CODE', 'Wrong code', {
    details: { attemptsLeft: attemptsLeft(accountLoginPolicy, charged, at) },
  });
}

/**
 * The charges of the factor checks of factors-service.ts (on the user's factor throttle, before the
 * check) and the recovery-code checks made under them: spent at once (`checkRecoveryCode`, for `verify`)
 * or matched for a sign-in to spend (`matchRecoveryCode`).
 */
export function createFactorCharges(deps: {
  db: Kysely<Database>;
  now: () => Date;
  throttles: ThrottleStore;
  onMailQueued?: () => void;
  /** The app's public origin, for the freeze link of the security mails. */
  publicOrigin?: string;
}) {
  const { db, now, throttles } = deps;

  /** The id of the user's unused code that `typed` is, or undefined. */
  async function findRecoveryCode(userId: string, typed: string) {
    for (const row of await unusedRecoveryCodes(db, userId))
      if (recoveryCodeMatches(row.salt, row.code_hash, typed)) return row.id;
    return undefined;
  }

  async function spendRecoveryCode(trx: Kysely<Database>, client: Client, userId: string, id: string, at: Date) {
    if (!(await useRecoveryCode(trx, id, at))) return false;
    await appendAudit(trx, { event: 'recovery_code_used', at, userId, ip: client.ip });
    await queueSecurityNotice(trx, userId, 'recovery_code_used', at, deps.publicOrigin);
    return true;
  }

  async function checkRecoveryCode(client: Client, userId: string, typed: string, at: Date) {
    const id = await findRecoveryCode(userId, typed);
    if (id === undefined) return 'wrong';
    const used = await db.transaction().execute((trx) => spendRecoveryCode(trx, client, userId, id, at));
    if (used) deps.onMailQueued?.();
    return used ? 'ok' : 'used';
  }

  /** Charges the user's factor throttle before the check; a locked key is refused unchecked. */
  async function charge(userId: string) {
    const key = factorThrottleKey(userId);
    const at = now();
    const made = await throttles.charge(key, accountLoginPolicy, at);
    if (made.state === undefined) throw factorThrottledUnchecked(made.retryAfterSeconds);
    return { key, at, state: made.state };
  }

  type Charged = Awaited<ReturnType<typeof charge>>;
  async function refusal(client: Client, userId: string, during: string, result: string, made: Charged) {
    await appendAudit(db, { event: 'factor_failed', at: made.at, userId, ip: client.ip, details: { during, result } });
    return factorRefusal(result, made.state, made.at);
  }

  /** Charges the throttle, runs `check`, and answers as a password check does. */
  async function charged(client: Client, userId: string, during: string, check: (at: Date) => Promise<string>) {
    const made = await charge(userId);
    const result = await check(made.at);
    if (result === 'ok') {
      await throttles.clear(made.key);
      return;
    }
    throw await refusal(client, userId, during, result, made);
  }

  async function matchRecoveryCode(client: Client, userId: string, typed: string): Promise<RecoveryCodeMatch> {
    const made = await charge(userId);
    const id = await findRecoveryCode(userId, typed.trim());
    if (id === undefined) throw await refusal(client, userId, 'login', 'wrong', made);
    return {
      spend: (trx) => spendRecoveryCode(trx, client, userId, id, made.at),
      async spent() {
        // The sign-in is committed: the mailer first, and a throttle store that fails to clear (Redis
        // down) must not turn the signed-in answer into a 500 that drops its cookie with the code spent
        // (review s11 L2). The charge then stays until its window ends, as after a wrong code.
        deps.onMailQueued?.();
        await throttles.clear(made.key).catch(() => undefined);
      },
      refuseUsed: () => refusal(client, userId, 'login', 'used', made),
    };
  }

  return { charged, checkRecoveryCode, matchRecoveryCode };
}
