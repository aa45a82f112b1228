import assert from 'node:assert/strict';
import type { Redis } from 'ioredis';
import { afterFailure, retryAfterSeconds, type ThrottleState } from './throttle-schedule.ts';
import type { ThrottleStore } from './throttles.ts';

/**
 * The failed-attempt counters in Redis (REDIS_URL): one string per key holding the state as JSON,
 * expiring when it no longer matters (the lock is over and the run would start afresh), so nothing
 * needs purging. A failure is read, advanced with the same schedule as in PostgreSQL
 * (throttle-schedule.ts) and written back only if nobody wrote in between (compare-and-set in one Lua
 * script); a lost race reads again, so concurrent failures on other instances all count.
 */
const PREFIX = 'throttle:';
/** Each lost race means another failure of the same key was counted: a bound, never reached in practice. */
const CAS_ATTEMPTS_MAX = 50;

const CAS_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if (current or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
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

export function redisThrottleStore(redis: Redis): ThrottleStore {
  const get = async (key: string) => decode(await redis.get(PREFIX + key));
  return {
    async lockedFor(keys, now) {
      if (keys.length === 0) return 0;
      const states = (await redis.mget(keys.map((k) => PREFIX + k))).map(decode);
      return Math.max(0, ...states.map((s) => retryAfterSeconds(s, now)));
    },
    get,
    async recordFailure(key, policy, now) {
      for (let attempt = 0; attempt < CAS_ATTEMPTS_MAX; attempt++) {
        const raw = await redis.get(PREFIX + key);
        const next = afterFailure(policy, decode(raw), now);
        // Kept while it matters: until the lock ends or the run resets, whichever is later.
        const endMs = Math.max(
          next.lockedUntil?.getTime() ?? 0,
          next.firstFailureAt.getTime() + policy.resetAfterSeconds * 1000,
        );
        const ttlMs = Math.max(1000, endMs - now.getTime());
        const written = await redis.eval(CAS_SCRIPT, 1, PREFIX + key, raw ?? '', encode(next), ttlMs);
        if (written === 1) return next;
      }
      assert.fail(`throttle ${key}: ${CAS_ATTEMPTS_MAX} concurrent writes in a row`);
    },
    async clear(key) {
      await redis.del(PREFIX + key);
    },
  };
}
