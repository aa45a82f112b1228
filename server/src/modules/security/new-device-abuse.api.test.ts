import { describe, expect, it } from 'vitest';
import {
  type Harness,
  login,
  nextIp,
  registerUser,
  STRONG_PASSWORD,
  sessionCookie,
  useAuthHarness,
} from '../auth/test-helpers.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';
import { totpCode } from './totp.ts';

// New-device confirmation (issue 31) against a thief who has the password (and sometimes the mailbox):
// refused mails write nothing, guesses are bounded per sign-in, waiting sign-ins are bounded, push
// nothing out and end on a security change, and the User-Agent's free text never reaches our mail.

const h: Harness = useAuthHarness();
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

const post = (url: string, cookie?: string, payload?: object, userAgent = FIREFOX) =>
  h.app.inject({
    method: 'POST',
    url,
    remoteAddress: nextIp(),
    headers: { ...(cookie ? { cookie } : {}), 'user-agent': userAgent },
    ...(payload ? { payload } : {}),
  });

async function lastMail(email: string): Promise<string> {
  const row = await h.db
    .selectFrom('outbox')
    .select(['text'])
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return row.text;
}

const parts = (text: string) => ({
  code: /^(\d{6})$/m.exec(text)?.[1] as string,
  freeze: /\/freeze#t=([A-Za-z0-9_-]{22})/.exec(text)?.[1] as string,
});

/** The thief: the password, a browser never seen (no device cookie). */
async function thiefSignsIn(user: { email: string }, userAgent = FIREFOX) {
  const res = await post(
    '/api/auth/login',
    undefined,
    { identifier: user.email, password: STRONG_PASSWORD },
    userAgent,
  );
  expect(res.statusCode, res.body).toBe(202);
  return sessionCookie(res);
}

describe('new-device confirmation: a thief with the password', () => {
  it("a thief's refused resends cannot void the 'this was not me' link of the mail already sent", async () => {
    const user = await registerUser(h);
    const cookie = await thiefSignsIn(user);
    const { freeze } = parts(await lastMail(user.email));
    // Each resend is refused (CODE_RESEND_TOO_SOON) before anything is minted.
    for (let i = 0; i < 51; i++) {
      const res = await post('/api/auth/device/resend', cookie);
      expect(res.json().code).toBe('CODE_RESEND_TOO_SOON');
    }
    // The owner reads the mail and presses "this was not me".
    const res = await post('/api/security/freeze-link', undefined, { token: freeze });
    expect(res.statusCode, res.body).toBe(204);
  });

  it('a resend does not buy a fresh set of guesses: at most 5 wrong codes per waiting sign-in', async () => {
    const user = await registerUser(h);
    const cookie = await thiefSignsIn(user);
    let wrongAccepted = 0;
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 5; i++) {
        const res = await post('/api/auth/device/confirm', cookie, { code: String(100000 + round * 10 + i) });
        if (res.json().code === 'WRONG_VERIFICATION_CODE') wrongAccepted++;
      }
      h.clock.advance(61_000);
      await post('/api/auth/device/resend', cookie);
    }
    // The budget is the sign-in's: a resend buys no fresh guesses (it was 5 per code, 15 here).
    expect(wrongAccepted).toBeLessThanOrEqual(5);
  });

  it("a thief's waiting sign-ins do not push the owner's real sessions out", async () => {
    const user = await registerUser(h); // the owner's browser: session A
    const ownerMe = async () =>
      (await h.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: user.cookie } })).statusCode;
    expect(await ownerMe()).toBe(200);
    h.clock.advance(120_000);
    // The thief (password, no mailbox) signs in 10 times from new browsers: 10 pending sessions.
    for (let i = 0; i < 10; i++) await thiefSignsIn(user);
    // The owner signs in on a second known browser (the registered device cookie).
    const second = await login(h, user.email, STRONG_PASSWORD);
    expect(second.statusCode, second.body).toBe(200);
    // Waiting sign-ins are no sessions yet: they count for nothing in the session limit.
    expect(await ownerMe()).toBe(200);
  });

  it('waiting sign-ins per account are bounded (a password alone cannot pile them up)', async () => {
    const user = await registerUser(h);
    for (let i = 0; i < 25; i++) await thiefSignsIn(user);
    const pending = await h.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', user.user.id)
      .where('device_pending', '=', true)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(pending.n)).toBeLessThanOrEqual(3);
  });

  it("the thief's User-Agent does not put free text (a link, a 'press approve') into our signed mail", async () => {
    const user = await registerUser(h);
    const ua = 'CW Wallet support checked this sign-in - it is you - press approve https://cw-help.example/x/1.0 (x)';
    await thiefSignsIn(user, ua);
    const text = await lastMail(user.email);
    expect(text).not.toContain('press approve');
    expect(text).not.toContain('cw-help.example');
    // Nor the owner's login history: an unknown browser is shown as such.
    const history = await h.app.inject({
      method: 'GET',
      url: '/api/me/security/logins',
      headers: { cookie: user.cookie },
    });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.body).not.toContain('press approve');
    expect(history.body).not.toContain('cw-help.example');
  });
  it('a password change (other sessions kept) ends the sign-in that waits on the old password', async () => {
    const user = await registerUser(h);
    const cookie = await thiefSignsIn(user);
    const { code } = parts(await lastMail(user.email));
    // The owner, warned by the mail, changes the password but keeps their other devices signed in.
    const changed = await post('/api/me/password', user.cookie, {
      oldPassword: STRONG_PASSWORD,
      password: 'An0ther-Str0ng-Passw0rd!',
      confirmPassword: 'An0ther-Str0ng-Passw0rd!',
      endOtherSessions: false,
    });
    expect(changed.statusCode, changed.body).toBe(204);
    // The thief (who also reads the mailbox) confirms the sign-in made with the old password.
    const confirmed = await post('/api/auth/device/confirm', cookie, { code });
    expect(confirmed.statusCode, confirmed.body).not.toBe(200);
  });

  it('turning the authenticator app on ends a password-only sign-in still waiting for its device mail', async () => {
    const user = await registerUser(h);
    const cookie = await thiefSignsIn(user);
    const { code } = parts(await lastMail(user.email));
    const start = await post('/api/me/security/totp', user.cookie);
    const { secret } = start.json() as { secret: string };
    const on = await post('/api/me/security/totp/confirm', user.cookie, { code: totpCode(secret, h.clock.now()) });
    expect(on.statusCode, on.body).toBe(200);
    // "Once a user has a second factor, every path in asks for it": the waiting sign-in ended.
    const confirmed = await post('/api/auth/device/confirm', cookie, { code });
    expect(confirmed.statusCode, confirmed.body).not.toBe(200);
  });
  it('a refused resend (too soon) leaves the mail already sent working', async () => {
    const user = await registerUser(h);
    const cookie = await thiefSignsIn(user); // here: the owner on a new phone
    const { code } = parts(await lastMail(user.email));
    expect((await post('/api/auth/device/resend', cookie)).json().code).toBe('CODE_RESEND_TOO_SOON');
    // Nothing is written before the limits pass: the code and link already mailed still work.
    const confirmed = await post('/api/auth/device/confirm', cookie, { code });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
  });

  it('adding a passkey (other sessions kept) ends a sign-in still waiting for its device mail', async () => {
    const user = await registerUser(h);
    const cookie = await thiefSignsIn(user);
    const { code } = parts(await lastMail(user.email));
    const key = new SoftAuthenticator(undefined, { keepsCounter: false });
    const options = (await post('/api/me/security/passkeys/options', user.cookie)).json();
    const added = await post('/api/me/security/passkeys', user.cookie, {
      name: 'Key',
      response: key.register(options),
      endOtherSessions: false,
    });
    expect(added.statusCode, added.body).toBe(201);
    expect((await post('/api/auth/device/confirm', cookie, { code })).statusCode).toBe(401);
  });

  it('concurrent resends send one mail; concurrent sign-ins leave at most 3 waiting', async () => {
    const user = await registerUser(h);
    const cookie = await thiefSignsIn(user);
    h.clock.advance(61_000);
    const resends = await Promise.all(Array.from({ length: 6 }, () => post('/api/auth/device/resend', cookie)));
    expect(resends.filter((r) => r.statusCode === 202)).toHaveLength(1);
    const { code } = parts(await lastMail(user.email));
    expect((await post('/api/auth/device/confirm', cookie, { code })).statusCode).toBe(200);
    await Promise.all(Array.from({ length: 6 }, () => thiefSignsIn(user)));
    const waiting = await h.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', user.user.id)
      .where('device_pending', '=', true)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(waiting.n)).toBeLessThanOrEqual(3);
  });

  it('new sign-ins buy no fresh guesses either: 20 a day per account, then only the mail link works', async () => {
    const user = await registerUser(h);
    let compared = 0;
    for (let signIn = 0; signIn < 5; signIn++) {
      const cookie = await thiefSignsIn(user);
      for (let i = 0; i < 5; i++) {
        const res = await post('/api/auth/device/confirm', cookie, { code: String(200000 + signIn * 10 + i) });
        if (res.json().code === 'WRONG_VERIFICATION_CODE') compared++;
        else expect(res.json().code).toBe('CODE_RATE_LIMITED');
      }
    }
    expect(compared).toBe(20);
    // The owner, on a new phone the same day: the code is refused, the mail's approve link works.
    const cookie = await thiefSignsIn(user);
    const text = await lastMail(user.email);
    const refused = await post('/api/auth/device/confirm', cookie, { code: parts(text).code });
    expect(refused.json().code).toBe('CODE_RATE_LIMITED');
    const approve = /\/confirm-device#t=([A-Za-z0-9_-]{43})/.exec(text)?.[1] as string;
    expect((await post('/api/auth/device/approve-link', undefined, { token: approve })).statusCode).toBe(204);
  });
});
