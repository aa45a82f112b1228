import { describe, expect, it } from 'vitest';
import { type Harness, login, nextIp, STRONG_PASSWORD, sessionCookie, useAuthHarness } from '../auth/test-helpers.ts';
import { pgThrottleStore, type ThrottleStore } from '../auth/throttles.ts';
import { factorThrottleKey } from './factor-charges.ts';
import { passkeyUser } from './passkey-test-helpers.ts';

/**
 * Review s11 L2: after a recovery code's sign-in is committed (the code spent in its transaction), the
 * factor throttle is cleared. A store that fails to clear then (Redis down) must not turn the signed-in
 * answer into a 500: the browser would get no cookie while the code is spent.
 */
let inner: ThrottleStore | undefined;
let clearsRefused = 0;
const need = () => {
  if (!inner) throw new Error('throttle store not ready');
  return inner;
};
/** The real store, except that clearing a factor key fails (as a store that went away would). */
const clearFailsForFactors: ThrottleStore = {
  lockedFor: (keys, now) => need().lockedFor(keys, now),
  get: (key) => need().get(key),
  recordFailure: (key, policy, now) => need().recordFailure(key, policy, now),
  charge: (key, policy, now) => need().charge(key, policy, now),
  refund: (key, charged) => need().refund(key, charged),
  async clear(key) {
    if (key.startsWith(factorThrottleKey(''))) {
      clearsRefused += 1;
      throw new Error('throttle store unreachable');
    }
    return need().clear(key);
  },
};

const h: Harness = useAuthHarness({ auth: { throttles: clearFailsForFactors } });

const post = (url: string, cookie: string, payload?: object) =>
  h.app.inject({ method: 'POST', url, remoteAddress: nextIp(), headers: { cookie }, ...(payload ? { payload } : {}) });

describe('a recovery code sign-in whose throttle clear fails', () => {
  it('still answers signed in, with its cookie, and the code is spent once', async () => {
    inner = pgThrottleStore(h.db);
    const user = await passkeyUser(h);
    const [recoveryCode] = user.recoveryCodes;

    const pending = await login(h, user.email, STRONG_PASSWORD);
    expect(pending.statusCode, pending.body).toBe(202);
    const res = await post('/api/auth/login/factor', sessionCookie(pending), { recoveryCode });
    expect(res.statusCode, res.body).toBe(200);
    expect(clearsRefused).toBe(1);
    const me = await h.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: sessionCookie(res) } });
    expect(me.statusCode).toBe(200);
    const used = await h.db
      .selectFrom('recovery_codes')
      .select('id')
      .where('user_id', '=', user.user.id)
      .where('used_at', 'is not', null)
      .execute();
    expect(used).toHaveLength(1);
  });
});
