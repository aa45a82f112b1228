import { describe, expect, it } from 'vitest';
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
import { SoftAuthenticator } from './soft-authenticator.ts';
import { totpCode } from './totp.ts';

/**
 * Review L1: every sign-in and approval transaction takes the user's sessions lock first, before any
 * row of the user's (known_devices, sessions). The one-transaction TOTP step took it first while the
 * passkey, password and general factor paths touched the known device before it: two sign-ins of one
 * user from one browser at once deadlocked (40P01, a 500).
 */
const h: Harness = useAuthHarness();
const ROUNDS = 20;
const STEP_MS = 30_000;

const post = (url: string, cookie: string | undefined, payload?: object) =>
  h.app.inject({
    method: 'POST',
    url,
    remoteAddress: nextIp(),
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload ? { payload } : {}),
  });

function cookieNamed(response: { headers: Record<string, unknown> }, name: string): string {
  const header = response.headers['set-cookie'];
  for (const c of Array.isArray(header) ? header : [header]) {
    const match = typeof c === 'string' ? new RegExp(`^((?:__Host-)?${name})=([^;]+)`).exec(c) : null;
    if (match) return `${match[1]}=${match[2]}`;
  }
  throw new Error(`no ${name} cookie in ${JSON.stringify(header)}`);
}

/** A user with a passkey and the authenticator app, signing in from the browser that registered. */
async function userWithBoth() {
  const user = await registerUser(h);
  const key = new SoftAuthenticator();
  const options = await post('/api/me/security/passkeys/options', user.cookie);
  expect(options.statusCode, options.body).toBe(200);
  const added = await post('/api/me/security/passkeys', user.cookie, {
    name: 'Laptop',
    response: key.register(options.json()),
  });
  expect(added.statusCode, added.body).toBe(201);
  const { secret } = (await post('/api/me/security/totp', user.cookie)).json() as { secret: string };
  const confirm = await post('/api/me/security/totp/confirm', user.cookie, { code: totpCode(secret, h.clock.now()) });
  expect(confirm.statusCode, confirm.body).toBe(200);
  return { ...user, key, secret, browser: registeredDevice(user.email) ?? '' };
}

describe('sign-ins of one user from one browser at once', () => {
  it(`${ROUNDS} rounds of a TOTP second step alongside a passkey sign-in: both succeed, never a 500`, async () => {
    const user = await userWithBoth();
    expect(user.browser).not.toBe('');
    const statuses: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      h.clock.advance(STEP_MS); // a fresh step each round (a code is accepted once per step)
      const pw = await login(h, user.email, STRONG_PASSWORD);
      expect(pw.statusCode, pw.body).toBe(202);
      const pending = sessionCookie(pw);
      const options = await post('/api/auth/passkey/options', undefined);
      expect(options.statusCode).toBe(200);
      const nonce = `${cookieNamed(options, 'pk_nonce')}; ${user.browser}`;
      const answer = user.key.authenticate(options.json());
      const [totp, passkey] = await Promise.all([
        post('/api/auth/login/factor', pending, { totpCode: totpCode(user.secret, h.clock.now()) }),
        post('/api/auth/passkey/login', nonce, { response: answer }),
      ]);
      statuses.push(totp.statusCode, passkey.statusCode);
      expect([totp.statusCode, passkey.statusCode], `${totp.body} ${passkey.body}`).toEqual([200, 200]);
    }
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    // Two sign-ins at once each round, against the per-user cap: exactly the newest 10 stay usable.
    const live = await h.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', user.user.id)
      .where('revoked_at', 'is', null)
      .where('factor_pending', '=', false)
      .where('device_pending', '=', false)
      .where('expires_at', '>', h.clock.now())
      .execute();
    expect(live).toHaveLength(10);
  });
});
