import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import {
  deviceCookie,
  type Harness,
  login,
  nextIp,
  registeredDevice,
  registerUser,
  STRONG_PASSWORD,
  sessionCookie,
  useAuthHarness,
} from '../auth/test-helpers.ts';
import { OUTFLOW_HOLD_MS, outflowHeldUntil } from '../withdrawals/outflow-holds.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';
import { totpCode } from './totp.ts';

const h: Harness = useAuthHarness();
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

const request = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: object) =>
  h.app.inject({
    method,
    url,
    remoteAddress: nextIp(),
    headers: { ...(cookie ? { cookie } : {}), 'user-agent': FIREFOX },
    ...(payload ? { payload } : {}),
  });
const post = (url: string, cookie?: string, payload?: object) => request('POST', url, cookie, payload);

/** The newest mail queued to `email` (the outbox keeps the text as sent, with the anti-phishing line). */
async function lastMail(email: string): Promise<{ text: string; subject: string }> {
  const row = await h.db
    .selectFrom('outbox')
    .select(['text', 'subject'])
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return row;
}

function mailParts(text: string) {
  const code = /^(\d{6})$/m.exec(text)?.[1];
  const approve = /\/confirm-device#t=([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  const freeze = /\/freeze#t=([A-Za-z0-9_-]{22})/.exec(text)?.[1];
  if (!code || !approve || !freeze) throw new Error(`new-device mail without code or links:\n${text}`);
  return { code, approve, freeze };
}

/** A sign-in with the password from a browser that never signed in before (no device cookie). */
async function signInFromNewBrowser(user: { email: string }, ip = '8.8.8.8') {
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: ip,
    headers: { 'user-agent': FIREFOX },
    payload: { identifier: user.email, password: STRONG_PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(202);
  expect(res.json()).toEqual({ deviceConfirmationRequired: true });
  return { cookie: sessionCookie(res), mail: await lastMail(user.email) };
}

type Doc = { paths: Record<string, Record<string, { security?: unknown; tags?: string[] }>> };

describe('new-device confirmation', () => {
  it('a new browser gets a pending session that every other route refuses, and a mail with device, place, time, code and links', async () => {
    const user = await registerUser(h);
    await h.db
      .insertInto('anti_phishing_codes')
      .values({ user_id: user.user.id, phrase: 'blue heron', updated_at: h.clock.now() })
      .execute();
    const { cookie, mail } = await signInFromNewBrowser(user);
    expect(cookie).toMatch(/did=[A-Za-z0-9_-]{43}/);
    expect(mail.text).toContain('blue heron'); // the anti-phishing phrase on top
    expect(mail.text).toContain('Firefox 128');
    expect(mail.text).toContain('Windows');
    expect(mail.text).toMatch(/8\.8\.8\.8/);
    expect(mail.text).toContain('2030-01-02 03:04');
    mailParts(mail.text);

    // A sample of the OpenAPI document's operations under /api/me and the money routes: all refuse it.
    const doc = h.app.swagger() as unknown as Doc;
    const operations = Object.entries(doc.paths)
      .filter(([path]) => /^\/api\/(me|wallet|withdrawals|exchange|convert|support|rewards)\b/.test(path))
      .flatMap(([path, item]) => Object.keys(item).map((method) => ({ path, method: method.toUpperCase() })))
      .filter((_, i) => i % 3 === 0);
    expect(operations.length).toBeGreaterThan(15);
    // Wherever a request without a session is told UNAUTHENTICATED, the waiting one is told why it is
    // refused; nowhere is it let in (a route that validates its body first refuses both with a 400).
    const publicOps: string[] = [];
    for (const op of operations) {
      const url = op.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      const send = (cookieHeader?: string) =>
        h.app.inject({
          method: op.method as 'GET',
          url,
          ...(cookieHeader ? { headers: { cookie: cookieHeader } } : {}),
          ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { payload: {} }),
        });
      const [anonymous, pending] = [await send(), await send(cookie)];
      const expected =
        anonymous.json().code === 'UNAUTHENTICATED'
          ? [401, 'DEVICE_CONFIRMATION_REQUIRED']
          : [anonymous.statusCode, anonymous.json().code];
      expect([op.method, op.path, pending.statusCode, pending.json().code]).toEqual([op.method, op.path, ...expected]);
      // A public route (a catalogue, a price) answers both alike; every other one refuses the waiting session.
      if (anonymous.statusCode >= 400) expect(pending.statusCode).toBeGreaterThanOrEqual(400);
      else publicOps.push(`${op.method} ${op.path}`);
    }
    // Nothing of the account itself answers without a session.
    expect(publicOps.filter((op) => op.includes(' /api/me'))).toEqual([]);
    const status = (await request('GET', '/api/auth/device', cookie)).json();
    expect(status).toMatchObject({ state: 'pending', mailed: true });
    expect(status.emailMasked).toContain('***');
    // The owner's session list does not show it (it counts toward nothing).
    const sessions = (await request('GET', '/api/me/sessions', user.cookie)).json();
    expect(sessions.sessions ?? sessions).toHaveLength(1);
  });

  it('the code confirms once; the history shows pending then confirmed; the browser is known next time', async () => {
    const user = await registerUser(h);
    const { cookie, mail } = await signInFromNewBrowser(user);
    const { code } = mailParts(mail.text);
    const ok = await post('/api/auth/device/confirm', cookie, { code });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().user.email).toBe(user.email);
    expect((await request('GET', '/api/me', cookie)).statusCode).toBe(200);
    expect((await post('/api/auth/device/confirm', cookie, { code })).statusCode).toBe(401);
    const results = await h.db
      .selectFrom('login_attempts')
      .select(['result', 'method'])
      .where('user_id', '=', user.user.id)
      .orderBy('id')
      .execute();
    expect(results.map((r) => `${r.method}:${r.result}`)).toEqual([
      'password:device_pending',
      'password:device_confirmed',
    ]);
    // The same browser (its device cookie) signs in straight away; the other sessions stay.
    const device = deviceCookie({ headers: { 'set-cookie': cookie.split('; ').map((c) => `${c}; Path=/`) } });
    const again = await login(h, user.email, STRONG_PASSWORD, nextIp(), { device: device ?? null });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('wrong codes are throttled atomically, concurrent guesses included; the fifth ends the sign-in', async () => {
    const user = await registerUser(h);
    const { cookie, mail } = await signInFromNewBrowser(user);
    const { code } = mailParts(mail.text);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => post('/api/auth/device/confirm', cookie, { code: wrong })),
    );
    const codes = answers.map((a) => a.json().code);
    expect(codes.filter((c) => c === 'WRONG_VERIFICATION_CODE')).toHaveLength(5);
    expect(codes.filter((c) => c === 'VERIFICATION_CODE_EXPIRED')).toHaveLength(7);
    // The sign-in's budget is spent: it ended, and no resend revives it (a fresh set of guesses).
    expect((await post('/api/auth/device/confirm', cookie, { code })).statusCode).toBe(401);
    h.clock.advance(61_000);
    expect((await post('/api/auth/device/resend', cookie)).statusCode).toBe(401);
  });

  it('resend is spaced (not before a minute), then a new code and link; the old ones are dead', async () => {
    const user = await registerUser(h);
    const { cookie, mail } = await signInFromNewBrowser(user);
    expect((await post('/api/auth/device/resend', cookie)).json().code).toBe('CODE_RESEND_TOO_SOON');
    h.clock.advance(61_000);
    expect((await post('/api/auth/device/resend', cookie)).statusCode).toBe(202);
    const fresh = mailParts((await lastMail(user.email)).text);
    const old = mailParts(mail.text);
    expect((await post('/api/auth/device/approve-link', undefined, { token: old.approve })).statusCode).toBe(404);
    expect((await post('/api/auth/device/confirm', cookie, { code: old.code })).json().code).toBe(
      'WRONG_VERIFICATION_CODE',
    );
    expect((await post('/api/auth/device/confirm', cookie, { code: fresh.code })).statusCode).toBe(200);
  });

  it('the approve link, opened in any browser, confirms the waiting one; once', async () => {
    const user = await registerUser(h);
    const { cookie, mail } = await signInFromNewBrowser(user);
    const { approve } = mailParts(mail.text);
    expect((await post('/api/auth/device/approve-link', undefined, { token: approve })).statusCode).toBe(204);
    expect((await request('GET', '/api/auth/device', cookie)).json().state).toBe('none');
    expect((await request('GET', '/api/me', cookie)).statusCode).toBe(200);
    expect((await post('/api/auth/device/approve-link', undefined, { token: approve })).statusCode).toBe(404);
  });

  it('"this was not me": the mail freeze link freezes the account and ends every session, the waiting one too', async () => {
    const user = await registerUser(h);
    const { cookie, mail } = await signInFromNewBrowser(user);
    const { freeze, code, approve } = mailParts(mail.text);
    expect((await post('/api/security/freeze-link', undefined, { token: freeze })).statusCode).toBe(204);
    expect((await request('GET', '/api/me', user.cookie)).statusCode).toBe(401);
    expect((await post('/api/auth/device/confirm', cookie, { code })).statusCode).toBe(401);
    expect((await post('/api/auth/device/approve-link', undefined, { token: approve })).statusCode).toBe(404);
    const frozen = await h.db.selectFrom('account_freezes').selectAll().where('user_id', '=', user.user.id).execute();
    expect(frozen).toHaveLength(1);
  });

  it('a confirmed new device holds withdrawals and sends for 24 h (23:59 held, 24:01 free)', async () => {
    const user = await registerUser(h);
    const known = await login(h, user.email, STRONG_PASSWORD);
    expect(known.statusCode).toBe(200);
    expect(await outflowHeldUntil(h.db, user.user.id, h.clock.now())).toBeNull(); // a known device holds nothing
    const { cookie, mail } = await signInFromNewBrowser(user);
    expect(await outflowHeldUntil(h.db, user.user.id, h.clock.now())).toBeNull(); // pending: nothing yet
    const confirmedAt = h.clock.now().getTime();
    const { code } = mailParts(mail.text);
    expect((await post('/api/auth/device/confirm', cookie, { code })).statusCode).toBe(200);
    const at = (ms: number) => new Date(confirmedAt + ms);
    expect(await outflowHeldUntil(h.db, user.user.id, at(OUTFLOW_HOLD_MS - 60_000))).not.toBeNull();
    expect(await outflowHeldUntil(h.db, user.user.id, at(OUTFLOW_HOLD_MS + 60_000))).toBeNull();
    const events = (await listAudit(h.db, { userId: user.user.id })).map((e) => e.event);
    expect(events).toContain('login_device_pending');
    expect(events).toContain('new_device_confirmed');
  });

  it('a pending sign-in expires after 15 minutes and ends on logout', async () => {
    const user = await registerUser(h);
    const first = await signInFromNewBrowser(user);
    expect((await post('/api/auth/logout', first.cookie)).statusCode).toBe(204);
    expect((await request('GET', '/api/auth/device', first.cookie)).json().state).toBe('none');
    // A second sign-in at once gets its own mail (no resend gap between sign-ins; a new code).
    const second = await signInFromNewBrowser(user);
    expect(mailParts(second.mail.text).approve).not.toBe(mailParts(first.mail.text).approve);
    h.clock.advance(15 * 60_000 + 1);
    expect((await request('GET', '/api/auth/device', second.cookie)).json().state).toBe('none');
    const late = await post('/api/auth/device/confirm', second.cookie, { code: mailParts(second.mail.text).code });
    expect(late.statusCode).toBe(401);
  });

  it('the authenticator-app and passkey sign-ins from a new browser wait for the e-mail too', async () => {
    const user = await registerUser(h);
    const start = await post('/api/me/security/totp', user.cookie);
    const { secret } = start.json() as { secret: string };
    await post('/api/me/security/totp/confirm', user.cookie, { code: totpCode(secret, h.clock.now()) });
    h.clock.advance(30_000);
    const password = await login(h, user.email, STRONG_PASSWORD, nextIp(), { device: null });
    expect(password.json()).toEqual({ factorRequired: true });
    const factor = await post('/api/auth/login/factor', sessionCookie(password), {
      totpCode: totpCode(secret, h.clock.now()),
    });
    expect(factor.statusCode, factor.body).toBe(202);
    expect(factor.json()).toEqual({ deviceConfirmationRequired: true });
    expect((await request('GET', '/api/me', sessionCookie(factor))).json().code).toBe('DEVICE_CONFIRMATION_REQUIRED');

    const other = await registerUser(h);
    const key = new SoftAuthenticator(undefined, { keepsCounter: false });
    const options = (await post('/api/me/security/passkeys/options', other.cookie)).json();
    const added = await post('/api/me/security/passkeys', other.cookie, {
      name: 'Key',
      response: key.register(options),
    });
    expect(added.statusCode, added.body).toBe(201);
    const signInOptions = await post('/api/auth/passkey/options');
    const nonce = String(signInOptions.headers['set-cookie']).split(';')[0] as string;
    const answer = key.authenticate(signInOptions.json());
    const fromNew = await post('/api/auth/passkey/login', nonce, { response: answer });
    expect(fromNew.statusCode, fromNew.body).toBe(202);
    expect(fromNew.json()).toEqual({ deviceConfirmationRequired: true });
    // From the browser it was registered in, a passkey signs in at once.
    const knownOptions = await post('/api/auth/passkey/options');
    const knownNonce = String(knownOptions.headers['set-cookie']).split(';')[0] as string;
    const fromKnown = await post('/api/auth/passkey/login', `${knownNonce}; ${registeredDevice(other.email)}`, {
      response: key.authenticate(knownOptions.json()),
    });
    expect(fromKnown.statusCode, fromKnown.body).toBe(200);
  });
});
