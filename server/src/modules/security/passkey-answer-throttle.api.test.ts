import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import { nextIp, registeredDevice, registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { SoftAuthenticator, unsignedSignature } from './soft-authenticator.ts';
import { defaultWebAuthnOptions } from './webauthn-config.ts';

/**
 * POST /auth/passkey/login has its own per-IP budget of refused answers (WEBAUTHN_ANSWERS_PER_IP_MINUTE):
 * a forged answer needs only the victim's credential id and a made-up nonce cookie, and each refusal
 * writes an audit row (and login history) for the victim. Successful sign-ins are taken back.
 */
const h = useAuthHarness();
const LIMIT = defaultWebAuthnOptions.answersPerIpMinute;

const post = (url: string, ip: string, cookie?: string, payload?: object) =>
  h.app.inject({
    method: 'POST',
    url,
    remoteAddress: ip,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload ? { payload } : {}),
  });

async function victim() {
  const user = await registerUser(h);
  const key = new SoftAuthenticator();
  const options = await post('/api/me/security/passkeys/options', nextIp(), user.cookie);
  const added = await post('/api/me/security/passkeys', nextIp(), user.cookie, {
    name: 'Laptop',
    response: key.register(options.json()),
  });
  expect(added.statusCode, added.body).toBe(201);
  return { ...user, key, browser: registeredDevice(user.email) };
}

type Victim = Awaited<ReturnType<typeof victim>>;

/** Sign-in options (asked from a fresh IP: that endpoint has its own budget) and their nonce cookie. */
async function signInOptions(v: Victim) {
  const res = await post('/api/auth/passkey/options', nextIp());
  expect(res.statusCode).toBe(200);
  const header = res.headers['set-cookie'];
  const nonce = String((Array.isArray(header) ? header : [header]).find((c) => /^pk_nonce=/.test(String(c))));
  return { options: res.json(), cookie: [nonce.split(';')[0], v.browser].filter(Boolean).join('; ') };
}

/** The attack: the victim's credential id, no signature, a made-up nonce cookie (no options asked). */
function forge(v: Victim, options: object) {
  const answer = v.key.authenticate(options as Parameters<SoftAuthenticator['authenticate']>[0]);
  answer.response.signature = unsignedSignature();
  return answer;
}
const forged = (v: Victim, options: object, ip: string) =>
  post('/api/auth/passkey/login', ip, `pk_nonce=${randomBytes(24).toString('base64url')}`, {
    response: forge(v, options),
  });

const auditedFailures = async (userId: string) =>
  (await listAudit(h.db, { userId })).filter((e) => e.event === 'login_failed').length;
const historyRows = async (userId: string) =>
  (await h.db.selectFrom('login_attempts').select('id').where('user_id', '=', userId).execute()).length;

describe('refused passkey sign-in answers per IP', () => {
  it('beyond the limit: LOGIN_THROTTLED, nothing verified or written; another IP answers; after the minute too', async () => {
    const v = await victim();
    const { options } = await signInOptions(v);
    const ip = nextIp();
    for (let i = 0; i < LIMIT; i++) {
      const res = await forged(v, options, ip);
      expect(res.statusCode, res.body).not.toBe(429);
      expect(res.json().code).toMatch(/^PASSKEY_/);
    }
    const audited = await auditedFailures(v.user.id);
    const history = await historyRows(v.user.id);
    expect(audited).toBe(LIMIT);
    const throttled = await forged(v, options, ip);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json()).toMatchObject({ code: 'LOGIN_THROTTLED', details: { retryAfterSeconds: 60 } });
    // Even the owner's genuine answer from that IP is not verified now (its challenge stays unused).
    const genuine = await signInOptions(v);
    const answer = v.key.authenticate(genuine.options);
    expect((await post('/api/auth/passkey/login', ip, genuine.cookie, { response: answer })).statusCode).toBe(429);
    expect(await auditedFailures(v.user.id)).toBe(audited);
    expect(await historyRows(v.user.id)).toBe(history);
    // Another IP has its own budget.
    expect((await forged(v, options, nextIp())).json().code).toMatch(/^PASSKEY_/);
    // After the minute the IP is answered again: the held answer signs in.
    h.clock.advance(61_000);
    const later = await post('/api/auth/passkey/login', ip, genuine.cookie, { response: answer });
    expect(later.statusCode, later.body).toBe(200);
  });

  it('a successful sign-in does not count: a user signing in normally is never locked out by it', async () => {
    const v = await victim();
    const { options } = await signInOptions(v);
    const ip = nextIp();
    for (let i = 0; i < LIMIT - 1; i++) expect((await forged(v, options, ip)).statusCode).not.toBe(429);
    const genuine = await signInOptions(v);
    const ok = await post('/api/auth/passkey/login', ip, genuine.cookie, {
      response: v.key.authenticate(genuine.options),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    // The sign-in was taken back: one more refusal still fits in the budget, the next does not.
    expect((await forged(v, options, ip)).json().code).toMatch(/^PASSKEY_/);
    expect((await forged(v, options, ip)).json().code).toBe('LOGIN_THROTTLED');
  });

  it('a concurrent burst cannot get more than the limit verified (the charge is atomic)', async () => {
    const v = await victim();
    const { options } = await signInOptions(v);
    const ip = nextIp();
    const results = await Promise.all(Array.from({ length: 2 * LIMIT }, () => forged(v, options, ip)));
    const codes = results.map((r) => r.json().code as string);
    expect(codes.filter((c) => c === 'LOGIN_THROTTLED')).toHaveLength(LIMIT);
    expect(await auditedFailures(v.user.id)).toBe(LIMIT);
  });
});
