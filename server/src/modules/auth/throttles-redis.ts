import assert from 'node:assert/strict';
import type { Redis } from 'ioredis';
import {
  afterFailure,
  afterRefund,
  retryAfterSeconds,
  type ThrottlePolicy,
  type ThrottleState,
} from './throttle-schedule.ts';
import type { Charge, ThrottleStore } from './throttles.ts';

/**
 * The failed-attempt counters in Redis (REDIS_URL): one string per key holding the state as JSON,
 * expiring when it no longer matters (the lock is over and the run would start afresh), so nothing
 * needs purging. A failure (or a charge, or its refund) is read, advanced with the same schedule as in PostgreSQL
 * (throttle-schedule.ts) and written back only if nobody wrote in between (compare-and-set in one Lua
 * script); a lost race reads again, so concurrent failures on other instances all count.
 */
const PREFIX = 'throttle:';
/** Each lost race means another failure of the same key was counted: a bound, never reached in practice. */
const CAS_ATTEMPTS_MAX = 50;

const CAS_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if (current or '') ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1])
elseif ARGV[3] == '-1' then redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1`;

interface Stored {
  failures: number;
  first_ms: number;
  last_ms: number;
  locked_until_ms: number | null;
}

function encode(state: ThrottleState): string {
  const stored: Stored = {
    failures: state.failures,
    first_ms: state.firstFailureAt.getTime(),
    last_ms: state.lastFailureAt.getTime(),
    locked_until_ms: state.lockedUntil?.getTime() ?? null,
  };
  return JSON.stringify(stored);
}

function decode(raw: string | null): ThrottleState | undefined {
  if (raw === null) return undefined;
  const s = JSON.parse(raw) as Stored;
  return {
    failures: s.failures,
    firstFailureAt: new Date(s.first_ms),
    lastFailureAt: new Date(s.last_ms),
    lockedUntil: s.locked_until_ms === null ? null : new Date(s.locked_until_ms),
  };
}

/** What a step makes of the current state: the state to write (undefined: delete the key) and the answer. */
type Step<T> = (
  current: ThrottleState | undefined,
) => { write: false; result: T } | { write: true; next?: ThrottleState; result: T };

export function redisThrottleStore(redis: Redis): ThrottleStore {
  const get = async (key: string) => decode(await redis.get(PREFIX + key));
  // Read, step, write back only if nobody wrote in between; a lost race reads again.
  async function update<T>(key: string, policy: ThrottlePolicy | undefined, now: Date, step: Step<T>): Promise<T> {
    for (let attempt = 0; attempt < CAS_ATTEMPTS_MAX; attempt++) {
      const raw = await redis.get(PREFIX + key);
      const outcome = step(decode(raw));
      if (!outcome.write) return outcome.result;
      const next = outcome.next;
      let ttlMs = -1; // -1: keep the key's expiry (a refund, which only shortens what is kept)
      if (next && policy) {
        // Kept while it matters: until the lock ends or the run resets, whichever is later.
        const resetMs = (policy?.resetAfterSeconds ?? 0) * 1000;
        const endMs = Math.max(next.lockedUntil?.getTime() ?? 0, next.firstFailureAt.getTime() + resetMs);
        ttlMs = Math.max(1000, endMs - now.getTime());
      }
      const written = await redis.eval(CAS_SCRIPT, 1, PREFIX + key, raw ?? '', next ? encode(next) : '', ttlMs);
      if (written === 1) return outcome.result;
    }
    assert.fail(`throttle ${key}: ${CAS_ATTEMPTS_MAX} concurrent writes in a row`);
  }
  return {
    async lockedFor(keys, now) {
      if (keys.length === 0) return 0;
      const states = (await redis.mget(keys.map((k) => PREFIX + k))).map(decode);
      return Math.max(0, ...states.map((s) => retryAfterSeconds(s, now)));
    },
    get,
    recordFailure: (key, policy, now) =>
      update(key, policy, now, (current) => {
        const next = afterFailure(policy, current, now);
        return { write: true, next, result: next };
      }),
    charge: (key, policy, now) =>
      update(key, policy, now, (current): ReturnType<Step<Charge>> => {
        const wait = retryAfterSeconds(current, now);
        if (wait > 0) return { write: false, result: { retryAfterSeconds: wait } };
        const next = afterFailure(policy, current, now);
        return { write: true, next, result: { retryAfterSeconds: 0, state: next } };
      }),
    refund: async (key, charged) => {
      await update(key, undefined, charged.lastFailureAt, (current) => {
        if (!current) return { write: false, result: undefined };
        const next = afterRefund(current, charged);
        if (next === current) return { write: false, result: undefined };
        return { write: true, ...(next ? { next } : {}), result: undefined };
      });
    },
    async clear(key) {
      await redis.del(PREFIX + key);
    },
  };
}
