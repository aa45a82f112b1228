import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import {
  afterFailure,
  afterRefund,
  retryAfterSeconds,
  type ThrottlePolicy,
  type ThrottleState,
} from './throttle-schedule.ts';
import { clearThrottle, getThrottle, getThrottles, saveThrottle } from './throttles-repository.ts';

/** A charge: refused with the wait while the key is locked, or counted (the state it wrote). */
export type Charge = { retryAfterSeconds: number; state?: undefined } | { retryAfterSeconds: 0; state: ThrottleState };

/**
 * Where failed-attempt counters live (sign-in, fund password, operator sign-in): PostgreSQL (table
 * throttles, the default) or Redis when REDIS_URL is set (throttles-redis.ts). Either way every API
 * instance sees the same counters, so a client spreading its guesses over instances gains nothing.
 */
export interface ThrottleStore {
  /** Seconds until every key may try again (the longest lock among them); 0 if none is locked. */
  lockedFor(keys: string[], now: Date): Promise<number>;
  get(key: string): Promise<ThrottleState | undefined>;
  /** Records one failure for `key`; concurrent failures all count. Returns the new state. */
  recordFailure(key: string, policy: ThrottlePolicy, now: Date): Promise<ThrottleState>;
  /**
   * In one atomic step: refused if `key` is locked, otherwise one failure is recorded before the
   * guess is verified. A check read before a slow verification and a failure written after it let a
   * burst of concurrent guesses all pass the check (issue 38); a charge cannot be raced.
   */
  charge(key: string, policy: ThrottlePolicy, now: Date): Promise<Charge>;
  /** Takes back a charge whose guess was right (or never verified): see afterRefund. */
  refund(key: string, charged: ThrottleState): Promise<void>;
  /** Starts the key afresh (a successful attempt). */
  clear(key: string): Promise<void>;
  /**
   * Set when the counters are rows of the app's own PostgreSQL (table throttles): a check may then
   * lock its key's row in its own transaction and write the charge there, with the check's outcome
   * (security/login-factor-totp.ts). Unset for Redis.
   */
  readonly inDatabase?: true;
}

export function pgThrottleStore(db: Kysely<Database>): ThrottleStore {
  // Row-locked, so concurrent attempts on other instances all count.
  const locked = <T>(key: string, now: Date, step: (trx: Kysely<Database>, current?: ThrottleState) => Promise<T>) =>
    db.transaction().execute(async (trx) => {
      await trx
        .insertInto('throttles')
        .values({ key, failures: 0, first_failure_at: now, last_failure_at: now, locked_until: null })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const current = await getThrottle(trx, key, true);
      return step(trx, current && current.failures > 0 ? current : undefined);
    });
  return {
    inDatabase: true,
    async lockedFor(keys, now) {
      const states = await getThrottles(db, keys);
      return Math.max(0, ...keys.map((k) => retryAfterSeconds(states.get(k), now)));
    },
    get: (key) => getThrottle(db, key),
    recordFailure: (key, policy, now) =>
      locked(key, now, async (trx, current) => {
        const next = afterFailure(policy, current, now);
        await saveThrottle(trx, key, next);
        return next;
      }),
    charge: (key, policy, now) =>
      locked(key, now, async (trx, current): Promise<Charge> => {
        const wait = retryAfterSeconds(current, now);
        if (wait > 0) return { retryAfterSeconds: wait };
        const next = afterFailure(policy, current, now);
        await saveThrottle(trx, key, next);
        return { retryAfterSeconds: 0, state: next };
      }),
    refund: (key, charged) =>
      locked(key, charged.lastFailureAt, async (trx, current) => {
        const next = current && afterRefund(current, charged);
        if (next) await saveThrottle(trx, key, next);
        else await clearThrottle(trx, key);
      }),
    clear: (key) => clearThrottle(db, key),
  };
}

export interface ChargedKeys {
  /** The states the charges wrote, in the order of the keys. */
  states: ThrottleState[];
  /** Takes back the charges of `keys` (default: all). */
  refund(keys?: string[]): Promise<void>;
}

/**
 * Charges one attempt on every key, in order, or on none: when a key is locked, the charges already
 * made are taken back and the wait is returned instead.
 */
export async function chargeKeys(
  store: ThrottleStore,
  charges: { key: string; policy: ThrottlePolicy }[],
  now: Date,
): Promise<ChargedKeys | { retryAfterSeconds: number }> {
  const made: { key: string; state: ThrottleState }[] = [];
  const refund = async (keys?: string[]) => {
    for (const { key, state } of made) if (!keys || keys.includes(key)) await store.refund(key, state);
  };
  for (const { key, policy } of charges) {
    const charge = await store.charge(key, policy, now);
    if (charge.state === undefined) {
      await refund();
      return { retryAfterSeconds: charge.retryAfterSeconds };
    }
    made.push({ key, state: charge.state });
  }
  return { states: made.map((m) => m.state), refund };
}

/** The account's login-password throttle: sign-ins and every other check of the login password share it. */
export const loginThrottleKey = (userId: string) => `account:${userId}`;

/** LOGIN_THROTTLED (429) with the wait, as the login form and the password change show it. */
export function loginThrottled(retryAfterSeconds: number): AppError {
  return new AppError('LOGIN_THROTTLED', `Too many failed sign-ins; retry in ${retryAfterSeconds} s`, {
    details: { retryAfterSeconds },
  });
}
