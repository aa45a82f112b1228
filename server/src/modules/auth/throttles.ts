import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { afterFailure, retryAfterSeconds, type ThrottlePolicy, type ThrottleState } from './throttle-schedule.ts';
import { clearThrottle, getThrottle, getThrottles, saveThrottle } from './throttles-repository.ts';

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
  /** Starts the key afresh (a successful attempt). */
  clear(key: string): Promise<void>;
}

export function pgThrottleStore(db: Kysely<Database>): ThrottleStore {
  return {
    async lockedFor(keys, now) {
      const states = await getThrottles(db, keys);
      return Math.max(0, ...keys.map((k) => retryAfterSeconds(states.get(k), now)));
    },
    get: (key) => getThrottle(db, key),
    // Row-locked, so concurrent failures on other instances all count.
    recordFailure: (key, policy, now) =>
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('throttles')
          .values({ key, failures: 0, first_failure_at: now, last_failure_at: now, locked_until: null })
          .onConflict((oc) => oc.column('key').doNothing())
          .execute();
        const current = await getThrottle(trx, key, true);
        const next = afterFailure(policy, current && current.failures > 0 ? current : undefined, now);
        await saveThrottle(trx, key, next);
        return next;
      }),
    clear: (key) => clearThrottle(db, key),
  };
}

/** The account's login-password throttle: sign-ins and every other check of the login password share it. */
export const loginThrottleKey = (userId: string) => `account:${userId}`;

/** LOGIN_THROTTLED (429) with the wait, as the login form and the password change show it. */
export function loginThrottled(retryAfterSeconds: number): AppError {
  return new AppError('LOGIN_THROTTLED', `Too many failed sign-ins; retry in ${retryAfterSeconds} s`, {
    details: { retryAfterSeconds },
  });
}
