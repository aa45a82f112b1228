import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import { nextIp, registeredDevice, registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { carmichaelExponent, e1Forgery, SoftAuthenticator, withRsaExponent } from './soft-authenticator.ts';

/**
 * An RSA passkey with a weak key (any exponent but 65537: e = 1 or 1 + λ(n) "verify" the padded digest
 * itself, which anyone can write; a modulus under 2048 bits) is refused at registration, and a stored one
 * is refused at sign-in before any signature check.
 */
const h = useAuthHarness();

const post = (url: string, cookie: string | undefined, payload?: object) =>
  h.app.inject({
    method: 'POST',
    url,
    remoteAddress: nextIp(),
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload ? { payload } : {}),
  });

async function register(cookie: string, key: SoftAuthenticator) {
  const options = await post('/api/me/security/passkeys/options', cookie);
  expect(options.statusCode, options.body).toBe(200);
  return post('/api/me/security/passkeys', cookie, { name: 'RSA key', response: key.register(options.json()) });
}

const passkeysOf = (userId: string) =>
  h.db.selectFrom('user_passkeys').select(['id', 'public_key']).where('user_id', '=', userId).execute();

const sessionsOf = (userId: string) =>
  h.db.selectFrom('sessions').select('id').where('user_id', '=', userId).orderBy('id').execute();

function privateKeyOf(key: SoftAuthenticator) {
  const [credential] = key.credentials;
  if (!credential) throw new Error('no credential');
  return credential.privateKey;
}

function cookieOf(response: { headers: Record<string, unknown> }, name: RegExp): string {
  const header = response.headers['set-cookie'];
  for (const c of Array.isArray(header) ? header : [header]) {
    const match = typeof c === 'string' ? name.exec(c) : null;
    if (match) return `${match[1]}=${match[2]}`;
  }
  throw new Error(`no cookie in ${JSON.stringify(header)}`);
}

describe('passkeys with an RSA key', () => {
  it.each<[string, ConstructorParameters<typeof SoftAuthenticator>[1]]>([
    ['e = 1', { rsaExponent: 1n }],
    ['e = 3', { rsaExponent: 3n }],
    ['an even e (65536)', { rsaExponent: 65_536n }],
    ['an even e above 65537 (65538)', { rsaExponent: 65_538n }],
    ['e = 1 + λ(n) (odd and huge, yet s^e ≡ s mod n)', { rsaExponent: 'carmichael' }],
    ['e = 2^256 + 1', { rsaExponent: 2n ** 256n + 1n }],
    ['e = 65537 with a 1024-bit modulus', { rsaExponent: 65_537n, rsaModulusBits: 1024 }],
  ])('registration refuses %s: PASSKEY_REJECTED, nothing stored', async (_, options) => {
    const user = await registerUser(h);
    const res = await register(user.cookie, new SoftAuthenticator(undefined, options));
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json().code).toBe('PASSKEY_REJECTED');
    expect(await passkeysOf(user.user.id)).toEqual([]);
    const events = (await listAudit(h.db, { userId: user.user.id })).map((e) => e.event);
    expect(events).not.toContain('passkey_added');
  });

  it.each([
    ['e = 65537 (what authenticators use)', 65_537n],
    ['e = 65537 written with a leading zero byte', Uint8Array.of(0, 1, 0, 1)],
  ])('registration takes %s with a 2048-bit modulus, and the key signs in', async (_, rsaExponent) => {
    const user = await registerUser(h);
    const key = new SoftAuthenticator(undefined, { rsaExponent });
    const res = await register(user.cookie, key);
    expect(res.statusCode, res.body).toBe(201);
    const browser = registeredDevice(user.email);
    const options = await post('/api/auth/passkey/options', undefined);
    const nonce = [cookieOf(options, /^((?:__Host-)?pk_nonce)=([^;]+)/), browser].filter(Boolean).join('; ');
    const signIn = await post('/api/auth/passkey/login', nonce, { response: key.authenticate(options.json()) });
    expect(signIn.statusCode, signIn.body).toBe(200);
  });

  it.each([
    ['e = 1', () => 1n],
    ['e = 1 + λ(n)', (key: SoftAuthenticator) => carmichaelExponent(privateKeyOf(key))],
  ])(
    'a stored key with %s is refused at sign-in, though the forged signature verifies mathematically',
    async (_, exponentOf) => {
      const user = await registerUser(h);
      const key = new SoftAuthenticator(undefined, { rsaExponent: 65_537n });
      expect((await register(user.cookie, key)).statusCode).toBe(201);
      // Stored before registration refused them (or written by anything else): the key turned weak in place.
      const [stored] = await passkeysOf(user.user.id);
      if (!stored) throw new Error('no passkey stored');
      const weak = Buffer.from(withRsaExponent(new Uint8Array(stored.public_key), exponentOf(key)));
      await h.db.updateTable('user_passkeys').set({ public_key: weak }).where('id', '=', stored.id).execute();
      const sessionsBefore = await sessionsOf(user.user.id);
      const options = await post('/api/auth/passkey/options', undefined);
      const nonce = cookieOf(options, /^((?:__Host-)?pk_nonce)=([^;]+)/);
      const forged = e1Forgery(key.authenticate(options.json()));
      const res = await post('/api/auth/passkey/login', nonce, { response: forged });
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json().code).toBe('PASSKEY_REJECTED');
      expect(await sessionsOf(user.user.id)).toEqual(sessionsBefore);
    },
  );
});
