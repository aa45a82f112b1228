import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  login,
  nextIp,
  receiveCode,
  registerUser,
  STRONG_PASSWORD,
  useAuthHarness,
  withDevice,
} from '../auth/test-helpers.ts';
import { deviceHash } from './device-cookie.ts';
import { rememberDevice } from './devices-repository.ts';

/**
 * Known browsers end with the other sessions (review s12): sign out everywhere else, a password change
 * that ends the others, a password reset. A device cookie copied from one of them is then an unknown
 * browser again: its sign-in needs the e-mailed confirmation (202), and it loses the known browser's
 * own sign-in counter. The browser asking stays known.
 */
const h = useAuthHarness();

/** A second browser the owner had confirmed earlier (a laptop whose cookie a thief may have copied). */
async function laptopOf(userId: string) {
  const id = randomBytes(32).toString('base64url');
  await rememberDevice(h.db, { userId, deviceHash: deviceHash(id), userAgent: 'laptop' }, h.clock.now());
  return `did=${id}`;
}

describe('known browsers end with the other sessions', () => {
  it('sign out everywhere else: the other browser must confirm again, this one stays known', async () => {
    const owner = await registerUser(h);
    const laptop = await laptopOf(owner.user.id);
    expect((await login(h, owner.username, STRONG_PASSWORD, nextIp(), { device: laptop })).statusCode).toBe(200);
    const out = await h.app.inject({
      method: 'POST',
      url: '/api/me/sessions/revoke-others',
      remoteAddress: nextIp(),
      headers: { cookie: withDevice(owner.username, owner.cookie) },
    });
    expect(out.statusCode, out.body).toBeLessThan(300);
    expect((await login(h, owner.username, STRONG_PASSWORD, nextIp(), { device: laptop })).statusCode).toBe(202);
    expect((await login(h, owner.username, STRONG_PASSWORD)).statusCode).toBe(200);
  });

  it('a password reset forgets every browser but the one that reset it', async () => {
    const owner = await registerUser(h);
    const laptop = await laptopOf(owner.user.id);
    const code = await receiveCode(h, { email: owner.email, purpose: 'reset_password' });
    const password = 'N3w-Password!';
    const reset = await h.app.inject({
      method: 'POST',
      url: '/api/auth/password/reset',
      remoteAddress: nextIp(),
      headers: { cookie: laptop },
      payload: { email: owner.email, code, password, confirmPassword: password },
    });
    expect(reset.statusCode, reset.body).toBe(204);
    // The browser registered with is forgotten; the laptop that reset the password is still known.
    expect((await login(h, owner.username, password)).statusCode).toBe(202);
    expect((await login(h, owner.username, password, nextIp(), { device: laptop })).statusCode).toBe(200);
  });

  it('a password change ends the other browsers with the other sessions, unless asked to keep them', async () => {
    const owner = await registerUser(h);
    const laptop = await laptopOf(owner.user.id);
    const change = (oldPassword: string, password: string, endOtherSessions: boolean) =>
      h.app.inject({
        method: 'POST',
        url: '/api/me/password',
        remoteAddress: nextIp(),
        headers: { cookie: withDevice(owner.username, owner.cookie) },
        payload: { oldPassword, password, confirmPassword: password, endOtherSessions },
      });
    const kept = await change(STRONG_PASSWORD, 'N3w-Password!', false);
    expect(kept.statusCode, kept.body).toBe(204);
    expect((await login(h, owner.username, 'N3w-Password!', nextIp(), { device: laptop })).statusCode).toBe(200);
    const ended = await change('N3w-Password!', 'N3w-Password!2', true);
    expect(ended.statusCode, ended.body).toBe(204);
    expect((await login(h, owner.username, 'N3w-Password!2', nextIp(), { device: laptop })).statusCode).toBe(202);
    expect((await login(h, owner.username, 'N3w-Password!2')).statusCode).toBe(200);
  });

  it('a stolen session alone (no recent password) ends the sessions but forgets no browser', async () => {
    const owner = await registerUser(h);
    const laptop = await laptopOf(owner.user.id);
    h.clock.advance(6 * 60_000); // the sign-in is older than the 5 minutes of a recent password
    const out = await h.app.inject({
      method: 'POST',
      url: '/api/me/sessions/revoke-others',
      remoteAddress: nextIp(),
      headers: { cookie: withDevice(owner.username, owner.cookie) },
    });
    expect(out.statusCode, out.body).toBeLessThan(300);
    expect((await login(h, owner.username, STRONG_PASSWORD, nextIp(), { device: laptop })).statusCode).toBe(200);
  });

  it('freezing the account ("this was not me") forgets every browser but the owner\u2019s asking one', async () => {
    const owner = await registerUser(h);
    const laptop = await laptopOf(owner.user.id);
    const frozen = await h.app.inject({
      method: 'POST',
      url: '/api/me/security/freeze',
      remoteAddress: nextIp(),
      headers: { cookie: withDevice(owner.username, owner.cookie) },
    });
    expect(frozen.statusCode, frozen.body).toBeLessThan(300);
    const known = await h.db
      .selectFrom('known_devices')
      .select('device_hash')
      .where('user_id', '=', owner.user.id)
      .execute();
    expect(known).toHaveLength(1);
    expect(known[0]?.device_hash).not.toEqual(deviceHash(laptop.slice('did='.length)));
  });
});
