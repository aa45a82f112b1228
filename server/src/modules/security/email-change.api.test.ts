import { describe, expect, it } from 'vitest';
import {
  type Harness,
  login,
  nextIp,
  registeredDevice,
  registerUser,
  sessionCookie,
  uniqueUser,
  useAuthHarness,
} from '../auth/test-helpers.ts';
import { extractCode } from '../mail/smtp-sink.ts';
import { assertOutflowAllowed } from '../withdrawals/outflow-holds.ts';
import { totpCode } from './totp.ts';

/**
 * Issue 31: changing the e-mail address is a security change. It needs a fresh re-authentication and
 * the second factor, proves the new mailbox with a code, tells the old one (with the freeze link and
 * the anti-phishing phrase), keeps addresses unique under races, and holds outflows 24 h.
 */
const h: Harness = useAuthHarness();
type User = Awaited<ReturnType<typeof registerUser>>;
const MINUTE = 60_000;

const post = (cookie: string, url: string, payload: object, ip = nextIp()) =>
  h.app.inject({ method: 'POST', url, remoteAddress: ip, headers: { cookie }, payload });
const askCode = (user: User, newEmail: string) => post(user.cookie, '/api/me/security/email/code', { newEmail });
const change = (user: User, newEmail: string, code: string, extra: object = {}) =>
  post(user.cookie, '/api/me/security/email', { newEmail, code, ...extra });
const decoded = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

/** Asks for the code and reads it from the new mailbox. */
async function codeFor(user: User, newEmail: string): Promise<string> {
  const before = h.sink.messages.length;
  const res = await askCode(user, newEmail);
  expect(res.statusCode, res.body).toBe(202);
  const code = extractCode((await h.sink.waitFor(newEmail, { after: before })).raw);
  expect(code).toMatch(/^\d{6}$/);
  return code as string;
}

/** Moves the clock past the 5-minute proof, keeping the session alive (idle expiry is 30 minutes). */
async function staleProof(user: User) {
  h.clock.advance(5 * MINUTE + 1_000);
  await h.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: user.cookie } });
}

describe('e-mail change', () => {
  it('needs a re-authentication within the last 5 minutes, for the code and for the change', async () => {
    const user = await registerUser(h);
    const to = uniqueUser('new').email;
    const code = await codeFor(user, to);
    await staleProof(user);
    expect((await askCode(user, uniqueUser('new').email)).json().code).toBe('REAUTH_REQUIRED');
    expect((await change(user, to, code)).json().code).toBe('REAUTH_REQUIRED');
    const reauth = await post(user.cookie, '/api/me/security/reauth', { password: user.password });
    expect(reauth.statusCode).toBe(204);
    const done = await change(user, to, code);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().user.email).toBe(to);
  });

  it('mails one code to the new address only, throttles resends, refuses taken and unchanged addresses', async () => {
    const [user, other] = [await registerUser(h), await registerUser(h)];
    const to = uniqueUser('new').email;
    const before = h.sink.messages.length;
    await codeFor(user, to);
    const again = await askCode(user, to);
    expect(again.statusCode).toBe(429);
    expect(again.json().code).toBe('CODE_RESEND_TOO_SOON');
    expect((await askCode(user, other.email.toUpperCase())).json().code).toBe('EMAIL_EXISTS');
    expect((await askCode(user, user.email)).json().code).toBe('EMAIL_UNCHANGED');
    expect((await askCode(user, 'not-an-address')).json().code).toBe('VALIDATION_FAILED');
    await new Promise((resolve) => setTimeout(resolve, 300)); // let the outbox deliver anything queued
    const sent = h.sink.messages.slice(before);
    expect(sent.map((m) => m.to)).toEqual([[to]]);
  });

  it('charges wrong codes atomically: five concurrent wrong tries kill the code', async () => {
    const user = await registerUser(h);
    const to = uniqueUser('new').email;
    const code = await codeFor(user, to);
    const wrong = code === '000000' ? '111111' : '000000';
    const tries = await Promise.all(Array.from({ length: 8 }, () => change(user, to, wrong)));
    const codes = tries.map((r) => r.json().code).sort();
    expect(codes.filter((c) => c === 'WRONG_VERIFICATION_CODE')).toHaveLength(5);
    expect((await change(user, to, code)).json().code).toBe('VERIFICATION_CODE_EXPIRED');
    const row = await h.db
      .selectFrom('accounts')
      .select('email')
      .where('user_id', '=', user.user.id)
      .executeTakeFirst();
    expect(row?.email).toBe(user.email);
  });

  it('tells the old address with the freeze link and the phrase, ends other sessions, moves sign-in', async () => {
    const user = await registerUser(h);
    const set = await h.app.inject({
      method: 'PUT',
      url: '/api/me/security/anti-phishing',
      headers: { cookie: user.cookie },
      payload: { phrase: 'Blue Kettle 42' },
    });
    expect(set.statusCode).toBe(200);
    const other = sessionCookie(await login(h, user.username, user.password));
    const to = uniqueUser('new').email;
    const code = await codeFor(user, to);
    const before = h.sink.messages.length;
    const done = await change(user, to, code);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ user: { email: to }, otherSessionsEnded: 1 });
    const notice = decoded((await h.sink.waitFor(user.email, { after: before })).raw);
    expect(notice).toContain('Blue Kettle 42');
    const token = /\/freeze#t=([A-Za-z0-9_-]{22})/.exec(notice)?.[1];
    expect(token).toBeDefined();
    expect(notice).toContain(`${to.slice(0, 2)}***@example.com`);
    expect((await h.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: other } })).statusCode).toBe(401);
    // From the browser the user registered with (its device cookie is filed under the old address).
    const device = registeredDevice(user.email) ?? null;
    expect((await login(h, to, user.password, nextIp(), { device })).statusCode).toBe(200);
    expect((await login(h, user.email, user.password)).statusCode).toBe(401);
    const audit = await h.db
      .selectFrom('audit_events')
      .select('details')
      .where('user_id', '=', user.user.id)
      .where('event', '=', 'email_changed')
      .execute();
    expect(audit).toHaveLength(1);
    // The code was spent: the same one cannot change it again.
    expect((await change(user, uniqueUser('x').email, code)).json().code).toBe('VERIFICATION_CODE_NOT_REQUESTED');
    // "This was not me": the old mailbox's link freezes the account without a session.
    const freeze = await h.app.inject({
      method: 'POST',
      url: '/api/security/freeze-link',
      remoteAddress: nextIp(),
      payload: { token },
    });
    expect(freeze.statusCode).toBe(204);
    expect((await h.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: user.cookie } })).statusCode).toBe(
      401,
    );
  });

  it('is refused while the account is frozen (the unfreeze code goes to the account address)', async () => {
    const user = await registerUser(h);
    const to = uniqueUser('new').email;
    const code = await codeFor(user, to);
    expect((await post(user.cookie, '/api/me/security/freeze', {})).statusCode).toBe(204);
    const again = await login(h, user.username, user.password);
    const signedIn = { ...user, cookie: sessionCookie(again) };
    expect((await askCode(signedIn, uniqueUser('new').email)).json().code).toBe('ACCOUNT_FROZEN');
    expect((await change(signedIn, to, code)).json().code).toBe('ACCOUNT_FROZEN');
    const row = await h.db
      .selectFrom('accounts')
      .select('email')
      .where('user_id', '=', user.user.id)
      .executeTakeFirst();
    expect(row?.email).toBe(user.email);
  });

  it('keeps the other sessions when asked to', async () => {
    const user = await registerUser(h);
    const other = sessionCookie(await login(h, user.username, user.password));
    const to = uniqueUser('new').email;
    const done = await change(user, to, await codeFor(user, to), { endOtherSessions: false });
    expect(done.json().otherSessionsEnded).toBe(0);
    expect((await h.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: other } })).statusCode).toBe(200);
  });

  it('asks for the second factor when one is on', async () => {
    const user = await registerUser(h);
    const start = await post(user.cookie, '/api/me/security/totp', {});
    const { secret } = start.json() as { secret: string };
    const on = await post(user.cookie, '/api/me/security/totp/confirm', { code: totpCode(secret, h.clock.now()) });
    expect(on.statusCode).toBe(200);
    h.clock.advance(30_000); // the next 30 s step: the enrolment's code is spent
    const to = uniqueUser('new').email;
    const code = await codeFor(user, to);
    expect((await change(user, to, code)).json().code).toBe('FACTOR_REQUIRED');
    const right = totpCode(secret, h.clock.now());
    expect((await change(user, to, code, { totpCode: right === '000000' ? '111111' : '000000' })).json().code).toBe(
      'WRONG_FACTOR_CODE',
    );
    const row = await h.db
      .selectFrom('accounts')
      .select('email')
      .where('user_id', '=', user.user.id)
      .executeTakeFirst();
    expect(row?.email).toBe(user.email);
    const done = await change(user, to, code, { totpCode: right });
    expect(done.statusCode, done.body).toBe(200);
  });

  it('two accounts claiming one address at once: one wins, the other gets EMAIL_EXISTS', async () => {
    const [a, b] = [await registerUser(h), await registerUser(h)];
    const to = uniqueUser('shared').email;
    const codeA = await codeFor(a, to);
    h.clock.advance(61_000); // the per-address resend gap
    const codeB = await codeFor(b, to);
    // Each account's code is its own: B's request neither supersedes A's nor can be spent by A.
    expect((await change(a, to, codeB)).json().code).toBe('WRONG_VERIFICATION_CODE');
    const results = await Promise.all([change(a, to, codeA), change(b, to, codeB)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)?.json().code).toBe('EMAIL_EXISTS');
    const owners = await h.db.selectFrom('accounts').select('user_id').where('email', '=', to).execute();
    expect(owners).toHaveLength(1);
  });

  it('starts the 24 h outflow hold at the change: held at 23:59, free at 24:01', async () => {
    const user = await registerUser(h);
    await expect(assertOutflowAllowed(h.db, user.user.id, h.clock.now())).resolves.toBeUndefined();
    const to = uniqueUser('new').email;
    expect((await change(user, to, await codeFor(user, to))).statusCode).toBe(200);
    h.clock.advance(23 * 60 * MINUTE + 59 * MINUTE);
    await expect(assertOutflowAllowed(h.db, user.user.id, h.clock.now())).rejects.toMatchObject({
      code: 'OUTFLOW_HOLD',
      details: { retryAfterSeconds: 60 },
    });
    h.clock.advance(2 * MINUTE);
    await expect(assertOutflowAllowed(h.db, user.user.id, h.clock.now())).resolves.toBeUndefined();
  });
});
