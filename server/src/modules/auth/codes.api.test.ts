import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import {
  nextIp,
  receiveCode,
  registerUser,
  requestCode,
  STRONG_PASSWORD,
  uniqueUser,
  useAuthHarness,
} from './test-helpers.ts';

const h = useAuthHarness();

async function register(email: string, username: string, code: string) {
  return h.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress: nextIp(),
    payload: {
      username,
      email,
      code,
      country: 'TW',
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
      agreementAccepted: true,
    },
  });
}

describe('verification codes', () => {
  it('expire after 10 minutes (injectable clock)', async () => {
    const { username, email } = uniqueUser();
    const code = await receiveCode(h, { email, purpose: 'register' });
    h.clock.advance(600_000);
    const res = await register(email, username, code);
    expect(res.json().code).toBe('VERIFICATION_CODE_EXPIRED');
    h.clock.advance(-1_000); // at 9:59 it still works
    expect((await register(email, username, code)).statusCode).toBe(201);
    h.clock.advance(1_000);
  });

  it('die after 5 wrong tries: then even the right code is VERIFICATION_CODE_EXPIRED', async () => {
    const { username, email } = uniqueUser();
    const code = await receiveCode(h, { email, purpose: 'register' });
    const wrong = code === '000000' ? '111111' : '000000';
    const left: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await register(email, username, wrong);
      expect(res.json().code).toBe('WRONG_VERIFICATION_CODE');
      left.push(res.json().details.attemptsLeft);
    }
    expect(left).toEqual([4, 3, 2, 1, 0]);
    expect((await register(email, username, code)).json().code).toBe('VERIFICATION_CODE_EXPIRED');
    const failures = (await listAudit(h.db)).filter((e) => e.event === 'code_failed');
    expect(failures.length).toBeGreaterThanOrEqual(5);
  });

  it('are single use', async () => {
    const { username, email } = uniqueUser();
    const code = await receiveCode(h, { email, purpose: 'register' });
    expect((await register(email, username, code)).statusCode).toBe(201);
    const reuse = await h.app.inject({
      method: 'POST',
      url: '/api/auth/password/reset',
      remoteAddress: nextIp(),
      payload: { email, code, password: 'N3w-Password!', confirmPassword: 'N3w-Password!' },
    });
    // No reset code was ever asked for: the user is told to request one, not that it "expired".
    expect(reuse.json().code).toBe('VERIFICATION_CODE_NOT_REQUESTED');
    const resetCode = await receiveCode(h, { email, purpose: 'reset_password' });
    const reset = (password: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/auth/password/reset',
        remoteAddress: nextIp(),
        payload: { email, code: resetCode, password, confirmPassword: password },
      });
    expect((await reset('N3w-Password!')).statusCode).toBe(204);
    expect((await reset('N3w-Password!2')).json().code).toBe('VERIFICATION_CODE_EXPIRED');
  });

  it('are bound to their purpose', async () => {
    const account = await registerUser(h);
    const resetCode = await receiveCode(h, { email: account.email, purpose: 'reset_password' });
    // A reset code does not set a fund password.
    const fund = await h.app.inject({
      method: 'POST',
      url: '/api/me/fund-password',
      headers: { cookie: account.cookie },
      payload: { code: resetCode, fundPassword: '739164', confirmFundPassword: '739164' },
    });
    expect(fund.json().code).toBe('VERIFICATION_CODE_NOT_REQUESTED');
    // ... but does reset the password.
    const reset = await h.app.inject({
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: { email: account.email, code: resetCode, password: 'N3w-Password!', confirmPassword: 'N3w-Password!' },
    });
    expect(reset.statusCode).toBe(204);
  });

  it('can be resent only after 60 s (CODE_RESEND_TOO_SOON with retryAfterSeconds)', async () => {
    const { email } = uniqueUser();
    expect((await requestCode(h, { email, purpose: 'register' })).statusCode).toBe(202);
    h.clock.advance(45_000);
    const early = await requestCode(h, { email, purpose: 'register' });
    expect(early.statusCode).toBe(429);
    expect(early.json()).toMatchObject({ code: 'CODE_RESEND_TOO_SOON', details: { retryAfterSeconds: 15 } });
    expect(early.headers['retry-after']).toBe('15');
    h.clock.advance(15_000);
    expect((await requestCode(h, { email, purpose: 'register' })).statusCode).toBe(202);
  });

  it('are limited to 10 an hour per address', async () => {
    const { email } = uniqueUser();
    for (let i = 0; i < 10; i += 1) {
      expect((await requestCode(h, { email, purpose: 'register' })).statusCode).toBe(202);
      h.clock.advance(61_000);
    }
    const eleventh = await requestCode(h, { email, purpose: 'register' });
    expect(eleventh.json().code).toBe('CODE_RATE_LIMITED');
    // The wait until the first of the ten codes leaves the hour, said in the body and in Retry-After.
    expect(eleventh.json().details.retryAfterSeconds).toBe(3600 - 10 * 61);
    expect(eleventh.headers['retry-after']).toBe(String(3600 - 10 * 61));
    h.clock.advance(3_600_000);
    expect((await requestCode(h, { email, purpose: 'register' })).statusCode).toBe(202);
  });

  it('are limited to 10 an hour per IP', async () => {
    const ip = nextIp();
    for (let i = 0; i < 10; i += 1) {
      expect((await requestCode(h, { email: uniqueUser().email, purpose: 'register', ip })).statusCode).toBe(202);
    }
    const res = await requestCode(h, { email: uniqueUser().email, purpose: 'register', ip });
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('CODE_RATE_LIMITED');
    h.clock.advance(3_600_000);
  });

  it('reset_password answers 202 for unknown addresses but sends nothing', async () => {
    const before = h.sink.messages.length;
    const res = await requestCode(h, { email: 'nobody-here@example.com', purpose: 'reset_password' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ resendAfterSeconds: 60, expiresInSeconds: 600 });
    await new Promise((r) => setTimeout(r, 300));
    expect(h.sink.messages.slice(before).some((m) => m.to.includes('nobody-here@example.com'))).toBe(false);
  });

  it('signed-in purposes need a session and go to the account address', async () => {
    const anonymous = await requestCode(h, { purpose: 'fund_password' });
    expect(anonymous.statusCode).toBe(401);
    const account = await registerUser(h);
    const code = await receiveCode(h, {
      purpose: 'fund_password',
      email: 'someone-else@example.com',
      cookie: account.cookie,
      to: account.email,
    });
    expect(code).toMatch(/^\d{6}$/);
    expect(h.sink.messages.some((m) => m.to.includes('someone-else@example.com'))).toBe(false);
  });

  it('stores only a salted hash of the code', async () => {
    const { email } = uniqueUser();
    const code = await receiveCode(h, { email, purpose: 'register' });
    const row = await h.db
      .selectFrom('verification_codes')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.code_hash.length).toBe(32);
    expect(row.code_hash.toString('hex')).not.toContain(Buffer.from(code).toString('hex'));
    expect(JSON.stringify(row)).not.toContain(code);
  });
});
