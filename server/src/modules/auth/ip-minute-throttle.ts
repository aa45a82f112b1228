import type { ThrottlePolicy, ThrottleState } from './throttle-schedule.ts';
import { retryAfterSeconds } from './throttle-schedule.ts';
import { loginThrottled, type ThrottleStore } from './throttles.ts';

/**
 * A per-IP budget of `perMinute` attempts (the passkey sign-in endpoints, WEBAUTHN_*_PER_IP_MINUTE):
 * beyond it the IP waits out the minute. Kept in the throttle store, so every API instance shares it.
 */
export const perIpMinutePolicy = (perMinute: number): ThrottlePolicy => ({
  freeFailures: perMinute,
  baseLockSeconds: 60,
  maxLockSeconds: 60,
  resetAfterSeconds: 60,
});

/**
 * Charges one attempt on `key` before the attempt is served, in one atomic step of the store (a burst
 * of concurrent requests cannot all pass a check read first); LOGIN_THROTTLED beyond the budget.
 * Returns the charged state, for `store.refund` when the attempt should not count after all.
 */
export async function chargeIpMinute(
  store: ThrottleStore,
  key: string,
  perMinute: number,
  at: Date,
): Promise<ThrottleState> {
  const charge = await store.charge(key, perIpMinutePolicy(perMinute), at);
  if (charge.state === undefined) throw loginThrottled(charge.retryAfterSeconds);
  const locked = retryAfterSeconds(charge.state, at);
  if (locked > 0) throw loginThrottled(locked);
  return charge.state;
}
