import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TEST_CONSOLE_ORIGIN } from '../../test/app.ts';
import { listAudit } from '../audit/repository.ts';
import { nextIp, useAuthHarness } from '../auth/test-helpers.ts';
import { SoftAuthenticator, unsignedSignature } from '../security/soft-authenticator.ts';
import { defaultWebAuthnOptions } from '../security/webauthn-config.ts';
import { addTestOperator } from './test-helpers.ts';

/**
 * POST /ops/passkey/session has the per-IP budget of refused answers the users' sign-in has
 * (WEBAUTHN_ANSWERS_PER_IP_MINUTE): each refusal is audited, and a made-up nonce cookie is enough to get one.
 */
const h = useAuthHarness();
const LIMIT = defaultWebAuthnOptions.answersPerIpMinute;
const post = (url: string, ip: string, headers: Record<string, string>, payload: object) =>
  h.app.inject({ method: 'POST', url, remoteAddress: ip, headers, payload });

async function operatorWithPasskey(name: string) {
  const key = new SoftAuthenticator(TEST_CONSOLE_ORIGIN);
  const op = await addTestOperator(h.app, { db: h.db, now: h.clock.now }, name, ['finance']);
  const options = await post('/api/ops/me/passkeys/options', nextIp(), { cookie: op.cookie }, {});
  const added = await post(
    '/api/ops/me/passkeys',
    nextIp(),
    { cookie: op.cookie },
    {
      name: 'YubiKey',
      response: key.register(options.json()),
    },
  );
  expect(added.statusCode, added.body).toBe(201);
  return { ...op, key };
}

async function signInOptions() {
  const res = await post('/api/ops/passkey/options', nextIp(), {}, {});
  expect(res.statusCode).toBe(200);
  const header = res.headers['set-cookie'];
  const nonce = String((Array.isArray(header) ? header : [header]).find((c) => /^ops_pk_nonce=/.test(String(c))));
  return { options: res.json(), cookie: nonce.split(';')[0] as string };
}

const answer = (ip: string, cookie: string, response: object) =>
  post('/api/ops/passkey/session', ip, { cookie }, { response });
function forged(key: SoftAuthenticator, options: object, ip: string) {
  const response = key.authenticate(options as Parameters<SoftAuthenticator['authenticate']>[0]);
  response.response.signature = unsignedSignature();
  return answer(ip, `ops_pk_nonce=${randomBytes(24).toString('base64url')}`, response);
}
const failures = async () => (await listAudit(h.db)).filter((e) => e.event === 'operator_sign_in_failed').length;

describe('refused operator passkey answers per IP', () => {
  it('beyond the limit: LOGIN_THROTTLED and nothing audited; another IP answers; after the minute too', async () => {
    const op = await operatorWithPasskey('pk_throttle');
    const { options } = await signInOptions();
    const ip = nextIp();
    const before = await failures();
    for (let i = 0; i < LIMIT; i++) expect((await forged(op.key, options, ip)).json().code).toMatch(/^PASSKEY_/);
    expect(await failures()).toBe(before + LIMIT);
    const throttled = await forged(op.key, options, ip);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json()).toMatchObject({ code: 'LOGIN_THROTTLED', details: { retryAfterSeconds: 60 } });
    const genuine = await signInOptions();
    const good = op.key.authenticate(genuine.options);
    expect((await answer(ip, genuine.cookie, good)).statusCode).toBe(429);
    expect(await failures()).toBe(before + LIMIT);
    expect((await forged(op.key, options, nextIp())).json().code).toMatch(/^PASSKEY_/);
    h.clock.advance(61_000);
    const later = await answer(ip, genuine.cookie, good);
    expect(later.statusCode, later.body).toBe(200);
  });

  it('a successful sign-in does not count; a concurrent burst gets at most the limit verified', async () => {
    const op = await operatorWithPasskey('pk_burst');
    const { options } = await signInOptions();
    const ip = nextIp();
    for (let i = 0; i < LIMIT - 1; i++) expect((await forged(op.key, options, ip)).statusCode).not.toBe(429);
    const genuine = await signInOptions();
    const ok = await answer(ip, genuine.cookie, op.key.authenticate(genuine.options));
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await forged(op.key, options, ip)).json().code).toMatch(/^PASSKEY_/);
    expect((await forged(op.key, options, ip)).json().code).toBe('LOGIN_THROTTLED');

    const burstIp = nextIp();
    const before = await failures();
    const results = await Promise.all(Array.from({ length: 2 * LIMIT }, () => forged(op.key, options, burstIp)));
    expect(results.filter((r) => r.json().code === 'LOGIN_THROTTLED')).toHaveLength(LIMIT);
    expect(await failures()).toBe(before + LIMIT);
  });
});
