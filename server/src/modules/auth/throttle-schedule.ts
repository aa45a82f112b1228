/**
 * Failed-attempt throttling, as pure functions over a counter row.
 *
 * Login, per account (or per unknown identifier, so both behave alike) and per IP:
 * the first `freeFailures` failures are free; each further failure locks the key for
 * `baseLockSeconds * 2^(n - freeFailures)` seconds, capped at `maxLockSeconds`.
 * Counters start afresh `resetAfterSeconds` after the first failure of a run (or on a successful
 * login, for the account key). With the account defaults that is at most 5 + 7 = 12 failures in
 * the first hour and one an hour after that — far below the 100-an-hour ceiling.
 */
export interface ThrottlePolicy {
  freeFailures: number;
  baseLockSeconds: number;
  maxLockSeconds: number;
  resetAfterSeconds: number;
}

export const accountLoginPolicy: ThrottlePolicy = {
  freeFailures: 5,
  baseLockSeconds: 30,
  maxLockSeconds: 3600,
  resetAfterSeconds: 24 * 3600,
};

export const ipLoginPolicy: ThrottlePolicy = {
  freeFailures: 30,
  baseLockSeconds: 30,
  maxLockSeconds: 3600,
  resetAfterSeconds: 24 * 3600,
};

/** Fund password: 5 wrong tries within an hour lock it for an hour. */
export const fundPasswordPolicy: ThrottlePolicy = {
  freeFailures: 4,
  baseLockSeconds: 3600,
  maxLockSeconds: 3600,
  resetAfterSeconds: 3600,
};

export interface ThrottleState {
  failures: number;
  firstFailureAt: Date;
  lastFailureAt: Date;
  lockedUntil: Date | null;
}

/** Lock length after the n-th consecutive failure (1-based); 0 = no lock. */
export function lockSecondsAfter(policy: ThrottlePolicy, failures: number): number {
  if (failures <= policy.freeFailures) return 0;
  const doublings = failures - policy.freeFailures - 1;
  return Math.min(policy.maxLockSeconds, policy.baseLockSeconds * 2 ** Math.min(doublings, 30));
}

/** Seconds until the key may try again; 0 when not locked. */
export function retryAfterSeconds(state: ThrottleState | undefined, now: Date): number {
  if (!state?.lockedUntil) return 0;
  const ms = state.lockedUntil.getTime() - now.getTime();
  return ms > 0 ? Math.ceil(ms / 1000) : 0;
}

/** The state after one more failure at `now`. */
export function afterFailure(policy: ThrottlePolicy, state: ThrottleState | undefined, now: Date): ThrottleState {
  const stale = !state || now.getTime() - state.firstFailureAt.getTime() >= policy.resetAfterSeconds * 1000;
  const failures = stale ? 1 : state.failures + 1;
  const firstFailureAt = stale ? now : state.firstFailureAt;
  const lock = lockSecondsAfter(policy, failures);
  return {
    failures,
    firstFailureAt,
    lastFailureAt: now,
    lockedUntil: lock > 0 ? new Date(now.getTime() + lock * 1000) : null,
  };
}

/**
 * The state after taking back one charged attempt (throttles.ts `charge`) that turned out right or was
 * never verified; undefined when nothing is left. `charged` is the state the charge wrote. A lock that
 * charge set is lifted (later charges were refused while it stood, so it was ours); a lock another
 * failure set stays. A run that started afresh since then no longer holds the charge: nothing changes.
 */
export function afterRefund(state: ThrottleState, charged: ThrottleState): ThrottleState | undefined {
  if (state.firstFailureAt.getTime() !== charged.firstFailureAt.getTime()) return state;
  const failures = state.failures - 1;
  if (failures <= 0) return undefined;
  const ownLock = state.lockedUntil !== null && state.lockedUntil.getTime() === charged.lockedUntil?.getTime();
  return { ...state, failures, lockedUntil: ownLock ? null : state.lockedUntil };
}

/** Tries left before the next failure locks the key (for WRONG_FUND_PASSWORD's attemptsLeft). */
export function attemptsLeft(policy: ThrottlePolicy, state: ThrottleState | undefined, now: Date): number {
  const stale = !state || now.getTime() - state.firstFailureAt.getTime() >= policy.resetAfterSeconds * 1000;
  const failures = stale ? 0 : state.failures;
  return Math.max(0, policy.freeFailures + 1 - failures);
}
