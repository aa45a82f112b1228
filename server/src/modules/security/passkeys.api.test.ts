import { randomBytes } from 'node:crypto';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import {
  type Harness,
  login,
  nextIp,
  registeredDevice,
  registerUser,
  STRONG_PASSWORD,
  sessionCookie,
  useAuthHarness,
} from '../auth/test-helpers.ts';
import { sweep } from '../retention/retention.ts';
import { outflowHeldUntil } from '../withdrawals/outflow-holds.ts';
import { SoftAuthenticator, unsignedSignature } from './soft-authenticator.ts';
import { defaultWebAuthnOptions } from './webauthn-config.ts';

const h: Harness = useAuthHarness();

const post = (url: string, cookie: string | undefined, payload?: object) =>
  h.app.inject({
    method: 'POST',
    url,
    remoteAddress: nextIp(),
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload ? { payload } : {}),
  });
const get = (url: string, cookie: string) => h.app.inject({ method: 'GET', url, headers: { cookie } });

/** Registers a passkey on `key` for the signed-in `cookie`; the answer of POST /me/security/passkeys. */
async function addPasskey(key: SoftAuthenticator, cookie: string, name: string) {
  const options = await post('/api/me/security/passkeys/options', cookie);
  expect(options.statusCode, options.body).toBe(200);
  return post('/api/me/security/passkeys', cookie, { name, response: key.register(options.json()) });
}

/**
 * The device cookie of the browser the sign-ins come from: the one the latest user registered in (a
 * known device), so the passkey sign-ins here are not new-device confirmations (new-device.api.test.ts).
 */
let browser: string | undefined;

async function userWithPasskey(key = new SoftAuthenticator()) {
  const user = await registerUser(h);
  browser = registeredDevice(user.email);
  const added = await addPasskey(key, user.cookie, 'Laptop');
  expect(added.statusCode, added.body).toBe(201);
  return { ...user, key, passkeyId: added.json().passkey.id as string };
}

/** The short-lived nonce cookie POST /auth/passkey/options sets (binds the sign-in challenge to this browser). */
function nonceCookie(response: { headers: Record<string, unknown> }): string {
  const header = response.headers['set-cookie'];
  for (const c of Array.isArray(header) ? header : [header]) {
    const match = typeof c === 'string' ? /^((?:__Host-)?pk_nonce)=([^;]+)/.exec(c) : null;
    if (match) return `${match[1]}=${match[2]}`;
  }
  throw new Error(`no nonce cookie in ${JSON.stringify(header)}`);
}

/** Sign-in options and the browser's nonce cookie that goes with them. */
async function signInOptions() {
  const options = await post('/api/auth/passkey/options', undefined);
  expect(options.statusCode).toBe(200);
  return { options: options.json(), nonce: [nonceCookie(options), browser].filter(Boolean).join('; ') };
}

async function passkeySignIn(key: SoftAuthenticator, extra: Parameters<SoftAuthenticator['authenticate']>[1] = {}) {
  const { options, nonce } = await signInOptions();
  expect(options.allowCredentials).toEqual([]); // discoverable: the browser offers its passkeys
  return post('/api/auth/passkey/login', nonce, { response: key.authenticate(options, extra) });
}

describe('passkeys', () => {
  it('registers several with names; the first factor gets recovery codes; rename; list shows last use', async () => {
    const user = await registerUser(h);
    const key = new SoftAuthenticator();
    const first = await addPasskey(key, user.cookie, 'Laptop');
    expect(first.statusCode).toBe(201);
    expect(first.json().recoveryCodes).toHaveLength(10);
    h.clock.advance(1_000); // listed by creation time: apart, so the order is not the ids' (random) one
    const second = await addPasskey(new SoftAuthenticator(), user.cookie, 'Phone');
    expect(second.json().recoveryCodes).toBeNull();
    const renamed = await h.app.inject({
      method: 'PATCH',
      url: `/api/me/security/passkeys/${second.json().passkey.id}`,
      headers: { cookie: user.cookie },
      payload: { name: 'Work phone' },
    });
    expect(renamed.json().name).toBe('Work phone');
    const list = (await get('/api/me/security/passkeys', user.cookie)).json();
    expect(list.max).toBe(10);
    // Both were added at the same instant of the test clock: their order is not what is tested.
    expect(list.passkeys.map((p: { name: string }) => p.name).sort()).toEqual(['Laptop', 'Work phone']);
    expect(list.passkeys.every((p: { lastUsedAt: string | null }) => p.lastUsedAt === null)).toBe(true);
    const status = (await get('/api/me/security', user.cookie)).json();
    expect(status).toMatchObject({ totp: false, passkeys: 2, recoveryCodesLeft: 10 });
    // The credential is stored with its public key, counter, transports and backup flags.
    const row = await h.db.selectFrom('user_passkeys').selectAll().where('name', '=', 'Laptop').executeTakeFirst();
    expect(row).toMatchObject({
      sign_count: '0',
      transports: ['internal'],
      device_type: 'singleDevice',
      backed_up: false,
    });
    expect(row?.public_key.length).toBeGreaterThan(60);
    // Registering needs a recent re-authentication, as every factor change does.
    h.clock.advance(5 * 60_000 + 1_000);
    expect((await post('/api/me/security/passkeys/options', user.cookie)).json().code).toBe('REAUTH_REQUIRED');
  });

  it('signs in without a password (both factors); the session works and the use is recorded', async () => {
    const user = await userWithPasskey();
    const res = await passkeySignIn(user.key);
    expect(res.statusCode, res.body).toBe(200);
    const cookie = sessionCookie(res);
    expect((await get('/api/me', cookie)).json().id).toBe(user.user.id);
    // A passkey session counts as freshly authenticated: security changes are open for 5 minutes.
    expect((await get('/api/me/security', cookie)).json().reauthenticatedUntil).not.toBeNull();
    const [passkey] = (await get('/api/me/security/passkeys', cookie)).json().passkeys;
    expect(passkey.lastUsedAt).toBe(h.clock.now().toISOString());
    const history = await h.db.selectFrom('login_attempts').selectAll().where('user_id', '=', user.user.id).execute();
    expect(history.some((a) => a.method === 'passkey' && a.result === 'succeeded')).toBe(true);
  });

  it('a password sign-in of a passkey user waits for the factor; a passkey answers it', async () => {
    const user = await userWithPasskey();
    const pw = await login(h, user.email, STRONG_PASSWORD);
    expect(pw.statusCode).toBe(202);
    const pending = sessionCookie(pw);
    expect((await get('/api/me', pending)).statusCode).toBe(401);
    // The step-up challenge is for signed-in sessions only; the pending one has its own.
    expect((await post('/api/me/security/passkeys/challenge', pending)).statusCode).toBe(401);
    const options = await post('/api/auth/login/factor/passkey-options', pending);
    expect(options.json().allowCredentials).toHaveLength(1);
    const done = await post('/api/auth/login/factor', pending, { passkey: user.key.authenticate(options.json()) });
    expect(done.statusCode, done.body).toBe(200);
    expect((await get('/api/me', sessionCookie(done))).json().id).toBe(user.user.id);
    expect((await get('/api/me', pending)).statusCode).toBe(401);
    // Another account's passkey does not answer this account's factor.
    const other = await userWithPasskey();
    const pw2 = sessionCookie(await login(h, user.email, STRONG_PASSWORD));
    const options2 = (await post('/api/auth/login/factor/passkey-options', pw2)).json();
    const foreign = other.key.authenticate({ ...options2, allowCredentials: [] });
    expect((await post('/api/auth/login/factor', pw2, { passkey: foreign })).json().code).toBe('PASSKEY_REJECTED');
  });

  it('a challenge is single use: a replayed answer and the second of two concurrent ones are refused', async () => {
    const user = await userWithPasskey(new SoftAuthenticator(undefined, { keepsCounter: false }));
    const { options, nonce } = await signInOptions();
    const answer = user.key.authenticate(options);
    const [a, b] = await Promise.all([
      post('/api/auth/passkey/login', nonce, { response: answer }),
      post('/api/auth/passkey/login', nonce, { response: answer }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    const replay = await post('/api/auth/passkey/login', nonce, { response: answer });
    expect(replay.json().code).toBe('PASSKEY_CHALLENGE_INVALID');
    // An expired challenge is refused too.
    const late = await signInOptions();
    h.clock.advance(5 * 60_000 + 1);
    const expired = await post('/api/auth/passkey/login', late.nonce, {
      response: user.key.authenticate(late.options),
    });
    expect(expired.json().code).toBe('PASSKEY_CHALLENGE_INVALID');
    // A sign-in challenge does not serve a step-up (purposes are not interchangeable).
    const signIn = sessionCookie(await passkeySignIn(user.key));
    const loginOptions = (await post('/api/auth/passkey/options', undefined)).json();
    const reauth = await post('/api/me/security/reauth', signIn, { passkey: user.key.authenticate(loginOptions) });
    expect(reauth.json().code).toBe('PASSKEY_CHALLENGE_INVALID');
  });

  it('binds each challenge to where it was issued: the browser, the session, the action', async () => {
    const user = await userWithPasskey(new SoftAuthenticator(undefined, { keepsCounter: false }));
    // A: sign-in options fetched in the victim's browser (by a script), answered there, redeemed elsewhere.
    const stolen = await signInOptions();
    const answer = user.key.authenticate(stolen.options);
    const elsewhere = await post('/api/auth/passkey/login', undefined, { response: answer });
    expect(elsewhere.json().code).toBe('PASSKEY_CHALLENGE_INVALID');
    const otherNonce = (await signInOptions()).nonce;
    expect((await post('/api/auth/passkey/login', otherNonce, { response: answer })).json().code).toBe(
      'PASSKEY_CHALLENGE_INVALID',
    );
    // B: a re-authentication challenge of session S1, spent on session S2 of the same user.
    const s2 = sessionCookie(await passkeySignIn(user.key));
    const s1Challenge = (await post('/api/me/security/passkeys/challenge', user.cookie, { purpose: 'reauth' })).json();
    const onS2 = await post('/api/me/security/reauth', s2, { passkey: user.key.authenticate(s1Challenge) });
    expect(onS2.json().code).toBe('PASSKEY_CHALLENGE_INVALID');
    // C: a money step-up answer is not a re-authentication.
    const stepUp = (await post('/api/me/security/passkeys/challenge', user.cookie, { purpose: 'step_up' })).json();
    const asReauth = await post('/api/me/security/reauth', user.cookie, { passkey: user.key.authenticate(stepUp) });
    expect(asReauth.json().code).toBe('PASSKEY_CHALLENGE_INVALID');
    const own = (await post('/api/me/security/passkeys/challenge', user.cookie, { purpose: 'reauth' })).json();
    const ok = await post('/api/me/security/reauth', user.cookie, { passkey: user.key.authenticate(own) });
    expect(ok.statusCode, ok.body).toBe(204);
    // The second step of a password sign-in: the pending session that asked.
    const p1 = sessionCookie(await login(h, user.email, STRONG_PASSWORD));
    const p2 = sessionCookie(await login(h, user.email, STRONG_PASSWORD));
    const p1Options = (await post('/api/auth/login/factor/passkey-options', p1)).json();
    const crossed = await post('/api/auth/login/factor', p2, { passkey: user.key.authenticate(p1Options) });
    expect(crossed.json().code).toBe('PASSKEY_CHALLENGE_INVALID');
  });

  it('adding or removing a passkey ends the other sessions unless the user keeps them', async () => {
    const user = await registerUser(h);
    browser = registeredDevice(user.email);
    const other = sessionCookie(await login(h, user.email, STRONG_PASSWORD));
    const key = new SoftAuthenticator(undefined, { keepsCounter: false });
    const added = await addPasskey(key, user.cookie, 'Laptop');
    expect(added.statusCode, added.body).toBe(201);
    expect((await get('/api/me', other)).statusCode).toBe(401);
    expect((await get('/api/me', user.cookie)).statusCode).toBe(200);
    // Kept on request: the add and the removal both take endOtherSessions: false.
    const kept = sessionCookie(await passkeySignIn(key));
    const options = (await post('/api/me/security/passkeys/options', user.cookie)).json();
    const spare = await post('/api/me/security/passkeys', user.cookie, {
      name: 'Spare',
      response: new SoftAuthenticator().register(options),
      endOtherSessions: false,
    });
    expect(spare.statusCode, spare.body).toBe(201);
    expect((await get('/api/me', kept)).statusCode).toBe(200);
    const del = (id: string, query: string) =>
      h.app.inject({
        method: 'DELETE',
        url: `/api/me/security/passkeys/${id}${query}`,
        headers: { cookie: user.cookie },
      });
    expect((await del(spare.json().passkey.id, '?endOtherSessions=false')).statusCode).toBe(204);
    expect((await get('/api/me', kept)).statusCode).toBe(200);
    expect((await del(added.json().passkey.id, '')).statusCode).toBe(204);
    expect((await get('/api/me', kept)).statusCode).toBe(401);
    expect((await get('/api/me', user.cookie)).statusCode).toBe(200);
  });

  it('refuses a counter that goes backwards (a cloned key), and an answer made on another origin', async () => {
    const user = await userWithPasskey();
    expect((await passkeySignIn(user.key, { counter: 5 })).statusCode).toBe(200);
    const phished = await passkeySignIn(user.key, { origin: 'https://wallet-login.example' });
    expect(phished.json().code).toBe('PASSKEY_REJECTED');
    // One fixed message, whatever the reason (nothing tells which credentials exist); the owner sees the failure.
    const { options, nonce } = await signInOptions();
    const unknownId = 'A'.repeat(43);
    const answer = { ...user.key.authenticate(options), id: unknownId, rawId: unknownId };
    const unknown = await post('/api/auth/passkey/login', nonce, { response: answer });
    expect(unknown.json()).toMatchObject({ code: 'PASSKEY_REJECTED', message: phished.json().message });
    const failed = await h.db.selectFrom('login_attempts').selectAll().where('user_id', '=', user.user.id).execute();
    expect(failed.filter((a) => a.method === 'passkey' && a.result === 'failed')).toHaveLength(1);
    const cloned = await passkeySignIn(user.key, { counter: 3 });
    expect(cloned.json().code).toBe('PASSKEY_COUNTER_REGRESSED');
    // The passkey is suspended: even a higher counter (the clone's or the owner's) no longer signs in.
    expect((await passkeySignIn(user.key, { counter: 9 })).json().code).toBe('PASSKEY_REJECTED');
    const events = (await listAudit(h.db, { userId: user.user.id })).map((e) => e.event);
    expect(events.filter((e) => e === 'passkey_counter_regressed')).toHaveLength(1);
    const [listed] = (await get('/api/me/security/passkeys', user.cookie)).json().passkeys;
    expect(listed.suspended).toBe(true);
    // The owner hears of it, outflows are held 24 h, and the login history shows the failed attempt.
    const mails = await h.db.selectFrom('outbox').select('text').where('to_address', '=', user.email).execute();
    expect(mails.some((m) => m.text.includes('暂停'))).toBe(true);
    expect(
      await outflowHeldUntil(h.db, user.user.id, new Date(h.clock.now().getTime() + 23 * 3_600_000)),
    ).not.toBeNull();
    const history = await h.db.selectFrom('login_attempts').selectAll().where('user_id', '=', user.user.id).execute();
    expect(history.some((a) => a.method === 'passkey' && a.result === 'failed')).toBe(true);
    // Removing it (after a re-authentication) is the way out; the options no longer offer it meanwhile.
    const pw = await login(h, user.email, STRONG_PASSWORD);
    expect(pw.statusCode).toBe(202);
    const factorOptions = await post('/api/auth/login/factor/passkey-options', sessionCookie(pw));
    expect(factorOptions.json().code).toBe('PASSKEY_NOT_FOUND');
  });

  it('an unsigned answer with a lower counter is a plain refusal: nothing suspended, no mail, no hold', async () => {
    // Review M1: anyone with a sign-in challenge (no password needed) and the credential id (not secret)
    // could suspend a victim's passkey, mail them and hold their outflows 24 h with garbage signature bytes.
    const user = await userWithPasskey();
    expect((await passkeySignIn(user.key, { counter: 5 })).statusCode).toBe(200);
    const mailCount = async () =>
      (await h.db.selectFrom('outbox').select('id').where('to_address', '=', user.email).execute()).length;
    const mailsBefore = await mailCount();
    const heldBefore = await outflowHeldUntil(h.db, user.user.id, h.clock.now()); // adding the passkey held them
    for (const signature of [unsignedSignature(), isoBase64URL.fromBuffer(new Uint8Array(randomBytes(71)))]) {
      const { options, nonce } = await signInOptions();
      const answer = user.key.authenticate(options, { counter: 0 });
      answer.response.signature = signature;
      const forged = await post('/api/auth/passkey/login', nonce, { response: answer });
      expect(forged.json().code, forged.body).toBe('PASSKEY_REJECTED');
    }
    const row = await h.db.selectFrom('user_passkeys').selectAll().where('id', '=', user.passkeyId).executeTakeFirst();
    expect(row?.suspended_at).toBeNull();
    expect(Number(row?.sign_count)).toBe(5);
    const events = (await listAudit(h.db, { userId: user.user.id })).map((e) => e.event);
    expect(events).not.toContain('passkey_counter_regressed');
    expect(await mailCount()).toBe(mailsBefore);
    expect(await outflowHeldUntil(h.db, user.user.id, h.clock.now())).toEqual(heldBefore);
    // The owner's next (signed) answer still signs in; a signed regressed counter still suspends.
    expect((await passkeySignIn(user.key, { counter: 6 })).statusCode).toBe(200);
    expect((await passkeySignIn(user.key, { counter: 2 })).json().code).toBe('PASSKEY_COUNTER_REGRESSED');
    const after = await h.db
      .selectFrom('user_passkeys')
      .selectAll()
      .where('id', '=', user.passkeyId)
      .executeTakeFirst();
    expect(after?.suspended_at).not.toBeNull();
  });

  it('the anonymous sign-in options are throttled per IP; retention sweeps every expired challenge', async () => {
    const ip = nextIp();
    const options = () => h.app.inject({ method: 'POST', url: '/api/auth/passkey/options', remoteAddress: ip });
    for (let i = 0; i < defaultWebAuthnOptions.optionsPerIpMinute; i++) expect((await options()).statusCode).toBe(200);
    const refused = await options();
    expect(refused.statusCode).toBe(429);
    expect((await post('/api/auth/passkey/options', undefined)).statusCode).toBe(200); // another IP
    h.clock.advance(2 * 60_000);
    expect((await options()).statusCode).toBe(200);
    // A flood of abandoned ceremonies: one sweep deletes them all, beyond the default batch cap.
    const at = h.clock.now();
    const rows = Array.from({ length: 350 }, (_, i) => ({
      challenge: `expired-challenge-${i}-${'x'.repeat(16)}`,
      purpose: 'login' as const,
      user_id: null,
      binding: 'nonce-hash',
      created_at: new Date(at.getTime() - 10 * 60_000),
      expires_at: new Date(at.getTime() - 5 * 60_000),
    }));
    await h.db.insertInto('webauthn_challenges').values(rows).execute();
    await sweep(h.db, at, { batchRows: 100, maxBatches: 1 });
    const left = await h.db
      .selectFrom('webauthn_challenges')
      .select('challenge')
      .where('expires_at', '<', at)
      .execute();
    expect(left).toHaveLength(0);
  });

  it('at most 10 per account', async () => {
    const user = await registerUser(h);
    for (let i = 0; i < 10; i++)
      expect((await addPasskey(new SoftAuthenticator(), user.cookie, `Key ${i}`)).statusCode).toBe(201);
    expect((await post('/api/me/security/passkeys/options', user.cookie)).json().code).toBe('PASSKEY_LIMIT');
    expect(
      await h.db.selectFrom('user_passkeys').select('id').where('user_id', '=', user.user.id).execute(),
    ).toHaveLength(10);
  });

  it('removal needs a re-authentication within 5 minutes (a passkey can give it), holds outflows 24 h, mails a notice', async () => {
    const user = await userWithPasskey();
    const second = await addPasskey(new SoftAuthenticator(), user.cookie, 'Spare');
    const spareId = second.json().passkey.id as string;
    h.clock.advance(5 * 60_000 + 1_000);
    const del = (id: string) =>
      h.app.inject({ method: 'DELETE', url: `/api/me/security/passkeys/${id}`, headers: { cookie: user.cookie } });
    expect((await del(spareId)).json().code).toBe('REAUTH_REQUIRED');
    // A user with a factor cannot re-authenticate with the password alone...
    expect((await post('/api/me/security/reauth', user.cookie, { password: STRONG_PASSWORD })).json().code).toBe(
      'FACTOR_REQUIRED',
    );
    // ...but a passkey (user-verifying) is both.
    const challenge = (await post('/api/me/security/passkeys/challenge', user.cookie, { purpose: 'reauth' })).json();
    const reauth = await post('/api/me/security/reauth', user.cookie, { passkey: user.key.authenticate(challenge) });
    expect(reauth.statusCode, reauth.body).toBe(204);
    expect((await del(spareId)).statusCode).toBe(204);
    expect((await del(spareId)).json().code).toBe('PASSKEY_NOT_FOUND');
    const removed = (await listAudit(h.db, { userId: user.user.id })).find((e) => e.event === 'passkey_removed');
    const from = removed?.occurredAt.getTime() ?? 0;
    expect(await outflowHeldUntil(h.db, user.user.id, new Date(from + 23 * 3_600_000 + 59 * 60_000))).not.toBeNull();
    expect(await outflowHeldUntil(h.db, user.user.id, new Date(from + 24 * 3_600_000 + 60_000))).toBeNull();
    const mails = await h.db.selectFrom('outbox').select('text').where('to_address', '=', user.email).execute();
    expect(mails.some((m) => m.text.includes('通行密钥'))).toBe(true); // zh-CN: no language saved
    // Removing the last factor voids the recovery codes: a password sign-in needs nothing more.
    expect((await del(user.passkeyId)).statusCode).toBe(204);
    expect((await get('/api/me/security', user.cookie)).json()).toMatchObject({ passkeys: 0, recoveryCodesLeft: 0 });
    expect((await login(h, user.email, STRONG_PASSWORD)).statusCode).toBe(200);
  });
});
