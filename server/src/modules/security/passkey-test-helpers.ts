import { expect } from 'vitest';
import { type Harness, nextIp, registerUser } from '../auth/test-helpers.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';

/**
 * A registered user whose passkey is `key` (a software authenticator), with the recovery codes the
 * passkey's registration issued: the set-up of the passkey and second-step tests.
 */
export async function passkeyUser(h: Harness) {
  const user = await registerUser(h);
  const key = new SoftAuthenticator();
  const post = (url: string, payload?: object) =>
    h.app.inject({
      method: 'POST',
      url,
      remoteAddress: nextIp(),
      headers: { cookie: user.cookie },
      ...(payload ? { payload } : {}),
    });
  const options = await post('/api/me/security/passkeys/options');
  const added = await post('/api/me/security/passkeys', { name: 'Laptop', response: key.register(options.json()) });
  expect(added.statusCode, added.body).toBe(201);
  return { ...user, key, recoveryCodes: added.json().recoveryCodes as string[] };
}
