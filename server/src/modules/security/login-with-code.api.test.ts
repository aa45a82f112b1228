import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import {
  type Harness,
  nextIp,
  registeredDevice,
  registerUser,
  STRONG_PASSWORD,
  sessionCookie,
  useAuthHarness,
} from '../auth/test-helpers.ts';
import { accountLoginPolicy } from '../auth/throttle-schedule.ts';
import { factorThrottleKey } from './factors-service.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';
import { totpCode } from './totp.ts';

/**
 * A returning device sends the authenticator code with the password (POST /api/auth/login with
 * totpCode, login-with-code.ts): one request, through the factor route's own step. The password is
 * checked first as always; a refused code answers the factor route's errors and leaves the pending
 * sign-in for the code step.
 */
const h: Harness = useAuthHarness();
const STEP_MS = 30_000;

const post = (url: string, cookie: string, payload?: object) =>
  h.app.inject({ method: 'POST', url, remoteAddress: nextIp(), headers: { cookie }, ...(payload ? { payload } : {}) });

/** The sign-in of a known browser (its device cookie), with a code beside the password. */
const loginWithCode = (identifier: string, code: string, password = STRONG_PASSWORD) =>
  post('/api/auth/login', registeredDevice(identifier) ?? '', { identifier, password, totpCode: code });

async function enrolledUser() {
  const user = await registerUser(h);
  const { secret } = (await post('/api/me/security/totp', user.cookie)).json() as { secret: string };
  const confirm = await post('/api/me/security/totp/confirm', user.cookie, { code: totpCode(secret, h.clock.now()) });
  expect(confirm.statusCode).toBe(200);
  h.clock.advance(STEP_MS);
  return { ...user, secret };
}

const wrongCode = (right: string, i = 0) => String((Number(right) + 1 + i * 7919) % 1_000_000).padStart(6, '0');
const me = (cookie: string) => h.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
const factorFailures = async (userId: string) =>
  (await listAudit(h.db, { userId })).filter((e) => e.event === 'factor_failed').length;
const counterOf = (userId: string) =>
  h.db.selectFrom('throttles').selectAll().where('key', '=', factorThrottleKey(userId)).executeTakeFirst();
const historyOf = (userId: string) =>
  h.db.selectFrom('login_attempts').select(['method', 'result']).where('user_id', '=', userId).execute();

describe('the authenticator code sent with the password', () => {
  it('right password + right code: signed in with one request', async () => {
    const user = await enrolledUser();
    const res = await loginWithCode(user.username, totpCode(user.secret, h.clock.now()));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.id).toBe(user.user.id);
    expect((await me(sessionCookie(res))).statusCode).toBe(200);
    const history = await historyOf(user.user.id);
    expect(history.filter((r) => r.result === 'succeeded')).toEqual([{ method: 'password+totp', result: 'succeeded' }]);
    expect(await counterOf(user.user.id)).toBeUndefined();
  });

  it('right password + wrong code: the factor error, and the pending sign-in still takes the right code', async () => {
    const user = await enrolledUser();
    const right = totpCode(user.secret, h.clock.now());
    const res = await loginWithCode(user.email, wrongCode(right));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('WRONG_FACTOR_CODE');
    expect(res.json().details).toEqual({ attemptsLeft: accountLoginPolicy.freeFailures }); // as the factor route's
    const pending = sessionCookie(res);
    expect((await me(pending)).statusCode).toBe(401);
    const ok = await post('/api/auth/login/factor', pending, { totpCode: right });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await me(sessionCookie(ok))).statusCode).toBe(200);
    expect(await factorFailures(user.user.id)).toBe(1);
  });

  it('wrong password + any code: wrong credentials, the code never evaluated, the factor throttle not charged', async () => {
    const user = await enrolledUser();
    const right = totpCode(user.secret, h.clock.now());
    for (const code of [right, wrongCode(right)]) {
      const res = await loginWithCode(user.email, code, `${STRONG_PASSWORD}x`);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('INVALID_CREDENTIALS');
      expect(JSON.stringify(res.headers['set-cookie'] ?? '')).not.toMatch(/sid=/);
    }
    expect(await counterOf(user.user.id)).toBeUndefined();
    expect(await factorFailures(user.user.id)).toBe(0);
    // The right code was not spent: it still signs in.
    expect((await loginWithCode(user.email, right)).statusCode).toBe(200);
  });

  it('a code sent for an account without the app is ignored: the answer is as without it', async () => {
    const plain = await registerUser(h);
    const res = await loginWithCode(plain.email, '123456');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.id).toBe(plain.user.id);

    // Passkey only: the 202 as today, nothing charged.
    const keyed = await registerUser(h);
    const options = (await post('/api/me/security/passkeys/options', keyed.cookie)).json();
    const added = await post('/api/me/security/passkeys', keyed.cookie, {
      name: 'Key',
      response: new SoftAuthenticator().register(options),
    });
    expect(added.statusCode, added.body).toBe(201);
    const pending = await loginWithCode(keyed.email, '123456');
    expect(pending.statusCode).toBe(202);
    expect(pending.json()).toEqual({ factorRequired: true });
    expect(await counterOf(keyed.user.id)).toBeUndefined();
  });

  it('a used step is refused as a replay (FACTOR_CODE_USED), with the pending sign-in left', async () => {
    const user = await enrolledUser();
    const code = totpCode(user.secret, h.clock.now());
    expect((await loginWithCode(user.email, code)).statusCode).toBe(200);
    const replay = await loginWithCode(user.email, code);
    expect(replay.json().code).toBe('FACTOR_CODE_USED');
    h.clock.advance(STEP_MS);
    const next = await post('/api/auth/login/factor', sessionCookie(replay), {
      totpCode: totpCode(user.secret, h.clock.now()),
    });
    expect(next.statusCode, next.body).toBe(200);
  });

  it('concurrent wrong codes are charged as on the factor route: no burst gets more verdicts than the schedule', async () => {
    const user = await enrolledUser();
    const right = totpCode(user.secret, h.clock.now());
    // Two failures first; then a burst small enough that the password counters (charged before the
    // hash, cleared after it) stay under their own lock, so every answer is the factor's.
    const before = 2;
    for (let i = 0; i < before; i += 1)
      expect((await loginWithCode(user.email, wrongCode(right, i))).json().code).toBe('WRONG_FACTOR_CODE');
    const burst = accountLoginPolicy.freeFailures - 1;
    const answers = await Promise.all(
      Array.from({ length: burst }, (_, i) => loginWithCode(user.email, wrongCode(right, before + i))),
    );
    const codes = answers.map((a) => a.json().code as string);
    const free = accountLoginPolicy.freeFailures - before;
    expect(codes.filter((c) => c === 'WRONG_FACTOR_CODE')).toHaveLength(free);
    expect(codes.filter((c) => c === 'FACTOR_THROTTLED')).toHaveLength(burst - free);
    const verdicts = accountLoginPolicy.freeFailures + 1;
    expect((await counterOf(user.user.id))?.failures).toBe(verdicts);
    expect(await factorFailures(user.user.id)).toBe(verdicts);
    // Locked: the right code with the right password waits, unverified, and the pending sign-in stays.
    const locked = await loginWithCode(user.email, right);
    expect(locked.json().code).toBe('FACTOR_THROTTLED');
    expect(sessionCookie(locked)).toBeTruthy();
    expect(await factorFailures(user.user.id)).toBe(verdicts);
  });
});
