import { describe, expect, it } from 'vitest';
import { TEST_CONSOLE_ORIGIN } from '../../test/app.ts';
import { listAudit } from '../audit/repository.ts';
import { nextIp, useAuthHarness } from '../auth/test-helpers.ts';
import { carmichaelExponent, e1Forgery, SoftAuthenticator, withRsaExponent } from '../security/soft-authenticator.ts';
import { addTestOperator } from './test-helpers.ts';

/**
 * Operators' passkeys: a weak RSA key (any exponent but 65537, a modulus under 2048 bits) is refused at
 * registration, and a stored one (e = 1 or 1 + λ(n): the padded digest itself "verifies") opens no
 * console session.
 */
const h = useAuthHarness();
const deps = () => ({ db: h.db, now: h.clock.now });
const post = (url: string, headers: Record<string, string>, payload: object) =>
  h.app.inject({ method: 'POST', url, remoteAddress: nextIp(), headers, payload });

type KeyOptions = ConstructorParameters<typeof SoftAuthenticator>[1];

async function register(name: string, keyOptions: KeyOptions) {
  const op = await addTestOperator(h.app, deps(), name, ['finance']);
  const key = new SoftAuthenticator(TEST_CONSOLE_ORIGIN, keyOptions);
  const options = await post('/api/ops/me/passkeys/options', { cookie: op.cookie }, {});
  expect(options.statusCode, options.body).toBe(200);
  const res = await post(
    '/api/ops/me/passkeys',
    { cookie: op.cookie },
    { name: 'RSA', response: key.register(options.json()) },
  );
  return { op, key, res };
}

const passkeysOf = (operatorId: string) =>
  h.db.selectFrom('operator_passkeys').select(['id', 'public_key']).where('operator_id', '=', operatorId).execute();

async function signInOptions() {
  const res = await post('/api/ops/passkey/options', {}, {});
  expect(res.statusCode, res.body).toBe(200);
  const header = res.headers['set-cookie'];
  const cookie = (Array.isArray(header) ? header : [header]).find((c) => String(c).startsWith('ops_pk_nonce='));
  return { options: res.json(), nonce: String(cookie).split(';')[0] as string };
}

describe('operator passkeys with an RSA key', () => {
  it.each<[string, string, KeyOptions]>([
    ['e = 1', 'e1', { rsaExponent: 1n }],
    ['e = 3', 'e3', { rsaExponent: 3n }],
    ['an even e (65536)', 'even', { rsaExponent: 65_536n }],
    ['e = 1 + λ(n)', 'lambda', { rsaExponent: 'carmichael' }],
    ['e = 2^256 + 1', 'big', { rsaExponent: 2n ** 256n + 1n }],
    ['e = 65537 with a 1024-bit modulus', 'n1024', { rsaExponent: 65_537n, rsaModulusBits: 1024 }],
  ])('registration refuses %s: PASSKEY_REJECTED, nothing stored', async (_, name, options) => {
    const { op, res } = await register(`rsa_weak_${name}`, options);
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json().code).toBe('PASSKEY_REJECTED');
    expect(await passkeysOf(op.id)).toEqual([]);
    const events = (await listAudit(h.db)).filter((e) => e.details.operatorId === op.id).map((e) => e.event);
    expect(events).not.toContain('operator_passkey_added');
  });

  it.each([
    ['e = 1', 'one', () => 1n],
    ['e = 1 + λ(n)', 'lambda', carmichaelExponent],
  ])(
    'e = 65537 is taken and signs in; the same key stored with %s refuses a forged answer',
    async (_, name, exponentOf) => {
      const { op, key, res } = await register(`rsa_ok_${name}`, { rsaExponent: 65_537n });
      const [credential] = key.credentials;
      if (!credential) throw new Error('no credential');
      expect(res.statusCode, res.body).toBe(201);
      const first = await signInOptions();
      const ok = await post(
        '/api/ops/passkey/session',
        { cookie: first.nonce },
        { response: key.authenticate(first.options) },
      );
      expect(ok.statusCode, ok.body).toBe(200);
      const [stored] = await passkeysOf(op.id);
      if (!stored) throw new Error('no passkey stored');
      const weak = Buffer.from(withRsaExponent(new Uint8Array(stored.public_key), exponentOf(credential.privateKey)));
      await h.db.updateTable('operator_passkeys').set({ public_key: weak }).where('id', '=', stored.id).execute();
      const second = await signInOptions();
      const forged = e1Forgery(key.authenticate(second.options));
      const refused = await post('/api/ops/passkey/session', { cookie: second.nonce }, { response: forged });
      expect(refused.statusCode, refused.body).toBe(401);
      expect(refused.json().code).toBe('PASSKEY_REJECTED');
      expect(String(refused.headers['set-cookie'] ?? '')).not.toContain('ops_sid=');
    },
  );
});
