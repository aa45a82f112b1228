import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import {
  type Harness,
  login,
  nextIp,
  receiveCode,
  registeredDevice,
  registerUser,
  STRONG_PASSWORD,
  sessionCookie,
  useAuthHarness,
} from '../auth/test-helpers.ts';
import { outflowHeldUntil } from '../withdrawals/outflow-holds.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';
import { totpCode } from './totp.ts';

const h: Harness = useAuthHarness();
const STEP_MS = 30_000;

const post = (url: string, cookie: string, payload?: object) =>
  h.app.inject({ method: 'POST', url, remoteAddress: nextIp(), headers: { cookie }, ...(payload ? { payload } : {}) });
const me = (cookie: string) => h.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });

/** A registered user with a confirmed authenticator app; the clock moved one step past enrolment. */
async function enrolledUser() {
  const user = await registerUser(h);
  const start = await post('/api/me/security/totp', user.cookie);
  expect(start.statusCode).toBe(200);
  const { secret, uri } = start.json() as { secret: string; uri: string };
  const confirm = await post('/api/me/security/totp/confirm', user.cookie, { code: totpCode(secret, h.clock.now()) });
  expect(confirm.statusCode).toBe(200);
  h.clock.advance(STEP_MS);
  return { ...user, secret, uri, recoveryCodes: confirm.json().recoveryCodes as string[] };
}

/** Password step only: the pending cookie. */
async function passwordStep(identifier: string, password = STRONG_PASSWORD) {
  const res = await login(h, identifier, password);
  expect(res.statusCode).toBe(202);
  expect(res.json()).toEqual({ factorRequired: true });
  return sessionCookie(res);
}

describe('authenticator app (TOTP)', () => {
  it('enrols by QR/secret, is off until a code confirms it, and gives 10 recovery codes', async () => {
    const user = await registerUser(h);
    const start = await post('/api/me/security/totp', user.cookie);
    const { secret, uri } = start.json() as { secret: string; uri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = new URL(uri);
    expect(parsed.protocol).toBe('otpauth:');
    expect(decodeURIComponent(parsed.pathname)).toBe(`/CW Wallet:${user.username}`);
    expect(parsed.searchParams.get('issuer')).toBe('CW Wallet');
    expect(parsed.searchParams.get('secret')).toBe(secret);
    // Not on yet: a sign-in needs the password only.
    expect((await login(h, user.email, STRONG_PASSWORD)).statusCode).toBe(200);
    const wrong = totpCode(secret, new Date(h.clock.now().getTime() + 10 * STEP_MS));
    const bad = await post('/api/me/security/totp/confirm', user.cookie, { code: wrong });
    expect(bad.json()).toMatchObject({ code: 'WRONG_FACTOR_CODE', details: { attemptsLeft: expect.any(Number) } });
    const ok = await post('/api/me/security/totp/confirm', user.cookie, { code: totpCode(secret, h.clock.now()) });
    const codes = ok.json().recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/); // 80 bits
    const status = await h.app.inject({ method: 'GET', url: '/api/me/security', headers: { cookie: user.cookie } });
    expect(status.json()).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
    // The secret is sealed at rest; the hashes are salted (no two rows alike for one code shape).
    const row = await h.db.selectFrom('user_totp').selectAll().where('user_id', '=', user.user.id).executeTakeFirst();
    expect(row?.secret_sealed.toString('latin1')).not.toContain(secret);
    expect((await post('/api/me/security/totp', user.cookie)).json().code).toBe('TOTP_ALREADY_ON');
  });

  it('a password sign-in waits for the code; the pending session opens nothing; a used code is refused', async () => {
    const user = await enrolledUser();
    const pending = await passwordStep(user.email);
    for (const url of ['/api/me', '/api/me/sessions', '/api/me/security', '/api/wallet/history'])
      expect((await h.app.inject({ method: 'GET', url, headers: { cookie: pending } })).statusCode).toBe(401);
    const money = await post('/api/wallet/sends', pending, { coin: 'USDT', amountMinor: '1' });
    expect(money.statusCode).toBe(401);

    const code = totpCode(user.secret, h.clock.now());
    const done = await post('/api/auth/login/factor', pending, { totpCode: code });
    expect(done.statusCode).toBe(200);
    const cookie = sessionCookie(done);
    expect(cookie).not.toBe(pending); // a new token: the half-authenticated one never becomes usable
    expect((await me(cookie)).json().id).toBe(user.user.id);
    expect((await me(pending)).statusCode).toBe(401);

    // Replay: the same code (same 30 s step) on a second sign-in is refused.
    const again = await passwordStep(user.username);
    expect((await post('/api/auth/login/factor', again, { totpCode: code })).json().code).toBe('FACTOR_CODE_USED');
    h.clock.advance(STEP_MS);
    const next = await post('/api/auth/login/factor', again, { totpCode: totpCode(user.secret, h.clock.now()) });
    expect(next.statusCode).toBe(200);
    // No factor step without a pending sign-in.
    expect((await post('/api/auth/login/factor', cookie, { totpCode: '123456' })).statusCode).toBe(401);
  });

  it('concurrent submissions of one right code: exactly one session', async () => {
    const user = await enrolledUser();
    const pendings = await Promise.all([1, 2, 3, 4].map(() => passwordStep(user.email)));
    const code = totpCode(user.secret, h.clock.now());
    const answers = await Promise.all(pendings.map((p) => post('/api/auth/login/factor', p, { totpCode: code })));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
  });

  it('accepts one step of drift either side, not two', async () => {
    const user = await enrolledUser();
    const at = h.clock.now().getTime();
    const tryCode = async (offsetSteps: number) => {
      h.clock.advance(4 * STEP_MS); // a fresh step each time, so replay protection is not what answers
      const pending = await passwordStep(user.email);
      const code = totpCode(user.secret, new Date(h.clock.now().getTime() + offsetSteps * STEP_MS));
      return (await post('/api/auth/login/factor', pending, { totpCode: code })).json();
    };
    expect(at).toBeGreaterThan(0);
    expect((await tryCode(-1)).user.id).toBe(user.user.id);
    expect((await tryCode(1)).user.id).toBe(user.user.id);
    expect((await tryCode(-2)).code).toBe('WRONG_FACTOR_CODE');
    expect((await tryCode(2)).code).toBe('WRONG_FACTOR_CODE');
  });

  it('is throttled like passwords: 30 concurrent guesses get at most 5 checks, then even the right code waits', async () => {
    const user = await enrolledUser();
    const pending = await passwordStep(user.email);
    const right = totpCode(user.secret, h.clock.now());
    const guesses = Array.from({ length: 30 }, (_, i) =>
      String((Number(right) + 1 + i * 7919) % 1_000_000).padStart(6, '0'),
    );
    const answers = await Promise.all(guesses.map((g) => post('/api/auth/login/factor', pending, { totpCode: g })));
    const codes = answers.map((a) => a.json().code as string);
    expect(codes.filter((c) => c === 'WRONG_FACTOR_CODE').length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === 'FACTOR_THROTTLED').length).toBeGreaterThanOrEqual(25);
    const locked = await post('/api/auth/login/factor', pending, { totpCode: right });
    expect(locked.json()).toMatchObject({
      code: 'FACTOR_THROTTLED',
      details: { retryAfterSeconds: expect.any(Number) },
    });
  });

  it('a recovery code works once, mails a notice, and regenerating voids the old ones', async () => {
    const user = await enrolledUser();
    const [first, second] = user.recoveryCodes as [string, string];
    const before = 0;
    const pending = await passwordStep(user.email);
    const ok = await post('/api/auth/login/factor', pending, { recoveryCode: first.toLowerCase().replace(/-/g, ' ') });
    expect(ok.statusCode).toBe(200);
    expect(before).toBeGreaterThanOrEqual(0);
    const notices = await h.db.selectFrom('outbox').select('text').where('to_address', '=', user.email).execute();
    expect(notices.some((n) => n.text.includes('恢复码'))).toBe(true); // zh-CN: no language saved
    const reuse = await post('/api/auth/login/factor', await passwordStep(user.email), { recoveryCode: first });
    expect(reuse.json().code).toBe('WRONG_FACTOR_CODE');

    const cookie = sessionCookie(ok);
    const fresh = await post('/api/me/security/recovery-codes', cookie);
    expect(fresh.json().recoveryCodes).toHaveLength(10);
    const old = await post('/api/auth/login/factor', await passwordStep(user.email), { recoveryCode: second });
    expect(old.json().code).toBe('WRONG_FACTOR_CODE');
    const events = (await listAudit(h.db, { userId: user.user.id })).map((e) => e.event);
    expect(events).toContain('recovery_code_used');
    expect(events).toContain('recovery_codes_generated');
  });

  it('security changes need the password (and code) proved within 5 minutes', async () => {
    const user = await enrolledUser();
    const pending = await passwordStep(user.email);
    const done = await post('/api/auth/login/factor', pending, { totpCode: totpCode(user.secret, h.clock.now()) });
    const cookie = sessionCookie(done);
    h.clock.advance(5 * 60_000 + 1_000);
    const code = () => totpCode(user.secret, h.clock.now());
    expect((await post('/api/me/security/totp/remove', cookie, { totpCode: code() })).json().code).toBe(
      'REAUTH_REQUIRED',
    );
    expect((await post('/api/me/security/recovery-codes', cookie)).json().code).toBe('REAUTH_REQUIRED');
    expect((await post('/api/me/security/reauth', cookie, { password: STRONG_PASSWORD })).json().code).toBe(
      'FACTOR_REQUIRED',
    );
    h.clock.advance(STEP_MS);
    const wrongPw = await post('/api/me/security/reauth', cookie, { password: 'nope-Nope1', totpCode: code() });
    expect(wrongPw.json().code).toBe('WRONG_PASSWORD');
    expect(
      (await post('/api/me/security/reauth', cookie, { password: STRONG_PASSWORD, totpCode: code() })).statusCode,
    ).toBe(204);
    h.clock.advance(STEP_MS);
    expect((await post('/api/me/security/totp/remove', cookie, { totpCode: code() })).statusCode).toBe(204);
    expect((await login(h, user.email, STRONG_PASSWORD)).statusCode).toBe(200);
  });

  it('adding or removing the factor holds outflows for 24 h (23:59 held, 24:01 free)', async () => {
    const user = await enrolledUser();
    const enabled = (await listAudit(h.db, { userId: user.user.id })).find((e) => e.event === 'totp_enabled');
    const from = enabled?.occurredAt.getTime() ?? 0;
    expect(await outflowHeldUntil(h.db, user.user.id, new Date(from + 23 * 3_600_000 + 59 * 60_000))).not.toBeNull();
    expect(await outflowHeldUntil(h.db, user.user.id, new Date(from + 24 * 3_600_000 + 60_000))).toBeNull();
  });

  it('every path in asks for the factor: password sign-in by e-mail or user name, and after a password reset', async () => {
    const user = await enrolledUser();
    const paths: Record<string, () => Promise<string>> = {
      'password by e-mail': () => passwordStep(user.email),
      'password by user name': () => passwordStep(user.username.toUpperCase()),
      'password after a reset': async () => {
        const code = await receiveCode(h, { email: user.email, purpose: 'reset_password' });
        const newPassword = 'Another-Pass9';
        const reset = await h.app.inject({
          method: 'POST',
          url: '/api/auth/password/reset',
          remoteAddress: nextIp(),
          payload: { email: user.email, code, password: newPassword, confirmPassword: newPassword },
        });
        expect(reset.statusCode).toBe(204);
        expect(reset.headers['set-cookie'] ?? '').not.toMatch(/sid=[A-Za-z0-9_-]{22}/); // a reset signs nobody in
        return passwordStep(user.email, newPassword);
      },
    };
    for (const [name, path] of Object.entries(paths)) {
      const pending = await path();
      expect((await me(pending)).statusCode, name).toBe(401);
      expect((await post('/api/me/security/reauth', pending, { password: STRONG_PASSWORD })).statusCode, name).toBe(
        401,
      );
    }
    // Registration makes a new account (no factor yet); the operator sign-in is another realm.
  });

  it('every path in, with a passkey: the password sign-in of a passkey-only account waits; a passkey sign-in is both', async () => {
    const user = await registerUser(h);
    const authenticator = new SoftAuthenticator();
    const options = (await post('/api/me/security/passkeys/options', user.cookie)).json();
    const added = await post('/api/me/security/passkeys', user.cookie, {
      name: 'Key',
      response: authenticator.register(options),
    });
    expect(added.statusCode).toBe(201);
    const pending = await passwordStep(user.email);
    expect((await me(pending)).statusCode).toBe(401);
    const signIn = await post('/api/auth/passkey/options', '');
    // The sign-in challenge is bound to the browser that asked for it by a nonce cookie.
    const nonce = String([signIn.headers['set-cookie']].flat()[0]).split(';')[0] ?? '';
    // From the browser the account registered in (its device cookie): no new-device step.
    const browser = `${nonce}; ${registeredDevice(user.email)}`;
    const done = await post('/api/auth/passkey/login', browser, {
      response: authenticator.authenticate(signIn.json()),
    });
    expect((await me(sessionCookie(done))).json().id).toBe(user.user.id);
  });
});
