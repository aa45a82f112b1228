import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { afterFailure, retryAfterSeconds, type ThrottlePolicy, type ThrottleState } from './throttle-schedule.ts';
import { clearThrottle, getThrottle, getThrottles, saveThrottle } from './throttles-repository.ts';

type Db = Kysely<Database>;

/** Seconds until every key may try again (the longest lock among them); 0 if none is locked. */
export async function lockedFor(db: Db, keys: string[], now: Date): Promise<number> {
  const states = await getThrottles(db, keys);
  return Math.max(0, ...keys.map((k) => retryAfterSeconds(states.get(k), now)));
}

/** Records one failure for `key` (row-locked, so concurrent failures all count); returns the new state. */
export async function recordFailure(db: Db, key: string, policy: ThrottlePolicy, now: Date): Promise<ThrottleState> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('throttles')
      .values({ key, failures: 0, first_failure_at: now, last_failure_at: now, locked_until: null })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    const current = await getThrottle(trx, key, true);
    const next = afterFailure(policy, current && current.failures > 0 ? current : undefined, now);
    await saveThrottle(trx, key, next);
    return next;
  });
}

export { clearThrottle, getThrottle };

/** The account's login-password throttle: sign-ins and every other check of the login password share it. */
export const loginThrottleKey = (userId: string) => `account:${userId}`;

/** LOGIN_THROTTLED (429) with the wait, as the login form and the password change show it. */
export function loginThrottled(retryAfterSeconds: number): AppError {
  return new AppError('LOGIN_THROTTLED', `Too many failed sign-ins; retry in ${retryAfterSeconds} s`, {
    details: { retryAfterSeconds },
  });
}
