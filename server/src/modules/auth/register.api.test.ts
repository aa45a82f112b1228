import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import {
  deviceCookie,
  nextIp,
  receiveCode,
  requestCode,
  STRONG_PASSWORD,
  sessionCookie,
  uniqueUser,
  useAuthHarness,
} from './test-helpers.ts';

const h = useAuthHarness();

function registerPayload(over: Record<string, unknown> = {}) {
  return {
    country: 'CN',
    password: STRONG_PASSWORD,
    confirmPassword: STRONG_PASSWORD,
    agreementAccepted: true,
    ...over,
  };
}

describe('POST /api/auth/register', () => {
  it('takes a 128-character pass phrase (the old limit was 20) and signs in with it', async () => {
    const { username, email } = uniqueUser();
    const phrase = `Correct-Horse-Battery-Staple-${'9'.repeat(99)}`;
    expect(phrase).toHaveLength(128);
    await requestCode(h, { email, purpose: 'register' });
    const code = /^(\d{6})\r?$/m.exec((await h.sink.waitFor(email)).raw)?.[1];
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: nextIp(),
      payload: registerPayload({ username, email, code, password: phrase, confirmPassword: phrase }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const login = await h.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: nextIp(),
      // The browser that registered (its device cookie): a known device.
      headers: { cookie: deviceCookie(res) ?? '' },
      payload: { identifier: username, password: phrase },
    });
    expect(login.statusCode).toBe(200);
  });

  it('creates the account with the code read from the SMTP sink, signs in and audits it', async () => {
    const { username, email } = uniqueUser('Alice');
    const sent = await requestCode(h, { email: email.toUpperCase(), purpose: 'register' });
    expect(sent.statusCode).toBe(202);
    expect(sent.json()).toEqual({ resendAfterSeconds: 60, expiresInSeconds: 600 });
    const mail = await h.sink.waitFor(email);
    const code = /^(\d{6})\r?$/m.exec(mail.raw)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.raw).toContain('Subject: =?UTF-8?');

    const res = await h.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: nextIp(),
      payload: registerPayload({ username, email, code, nickname: '  Ally ' }),
    });
    expect(res.statusCode).toBe(201);
    const user = res.json().user;
    expect(user).toMatchObject({ username, email, nickname: 'Ally', country: 'CN', hasFundPassword: false });
    expect(user.emailMasked).toMatch(/^al\*\*\*@example\.com$/);

    const me = await h.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: sessionCookie(res) } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(user);

    const events = (await listAudit(h.db, { userId: user.id })).map((e) => e.event);
    expect(events).toContain('registered');
  });

  it('writes the mail in the requested language (explicit, then Accept-Language, default zh-CN)', async () => {
    const a = uniqueUser();
    await receiveCode(h, { email: a.email, purpose: 'register', language: 'es' });
    const b = uniqueUser();
    await receiveCode(h, { email: b.email, purpose: 'register', acceptLanguage: 'fr;q=0.9, en-GB;q=0.8' });
    const c = uniqueUser();
    await receiveCode(h, { email: c.email, purpose: 'register' });
    const subject = (address: string) => h.sink.messages.find((m) => m.to.includes(address))?.raw ?? '';
    expect(subject(a.email)).toMatch(/Usa este c=C3=B3digo|Usa este código/);
    expect(subject(b.email)).toContain('Use this code to');
    expect(subject(c.email)).toMatch(/=E6=82=A8|您/);
  });

  it('refuses a taken e-mail (case-insensitively) when asking for a code and when registering', async () => {
    const { username, email } = uniqueUser();
    const code = await receiveCode(h, { email, purpose: 'register' });
    const first = await h.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: nextIp(),
      payload: registerPayload({ username, email, code }),
    });
    expect(first.statusCode).toBe(201);
    h.clock.advance(61_000); // asking about a taken address counts like asking for a code (issue 38)
    const again = await requestCode(h, { email: email.toUpperCase(), purpose: 'register' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('EMAIL_EXISTS');
  });

  it('refuses a taken user name, case-insensitively', async () => {
    const first = uniqueUser();
    const code1 = await receiveCode(h, { email: first.email, purpose: 'register' });
    await h.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: nextIp(),
      payload: registerPayload({ ...first, code: code1 }),
    });
    const second = uniqueUser();
    const code2 = await receiveCode(h, { email: second.email, purpose: 'register' });
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: nextIp(),
      payload: registerPayload({ username: first.username.toUpperCase(), email: second.email, code: code2 }),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('USERNAME_EXISTS');
  });

  it('answers VALIDATION_FAILED with field and rule for each bad field', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: nextIp(),
      payload: registerPayload({ username: 'a b', email: 'not-an-email', country: 'XX', code: '12ab' }),
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'username', rule: 'charset' }),
        expect.objectContaining({ field: 'email', rule: 'format' }),
        expect.objectContaining({ field: 'country', rule: 'format' }),
        expect.objectContaining({ field: 'code', rule: 'format' }),
      ]),
    );
  });

  it.each([
    [{ agreementAccepted: false }, 'AGREEMENT_REQUIRED'],
    [{ confirmPassword: 'Other-Pass1' }, 'PASSWORD_MISMATCH'],
    [{ password: 'short1', confirmPassword: 'short1' }, 'WEAK_PASSWORD'],
    [{ password: 'password1', confirmPassword: 'password1' }, 'COMMON_PASSWORD'],
    [{ password: 'USERNAME', confirmPassword: 'USERNAME' }, 'PASSWORD_MATCHES_ACCOUNT'],
    [{ password: 'EMAIL', confirmPassword: 'EMAIL' }, 'PASSWORD_MATCHES_ACCOUNT'],
  ])('refuses %j with %s', async (given: Record<string, unknown>, code) => {
    const { username, email } = uniqueUser();
    // The account's own name or address as its password, in another case.
    const own = { USERNAME: username.toUpperCase(), EMAIL: email.toUpperCase() }[String(given.password)];
    const over = own === undefined ? given : { password: own, confirmPassword: own };
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: nextIp(),
      payload: registerPayload({ username, email, code: '123456', ...over }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(code);
  });
});
