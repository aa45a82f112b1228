import { describe, expect, it } from 'vitest';
import { type Harness, login, nextIp, registerUser, sessionCookie, useAuthHarness } from '../auth/test-helpers.ts';

/**
 * A password change is a security change (ASVS 7.5.1): it needs a proof within the last 5 minutes —
 * the password and, when on, the second factor — so a session left open cannot change it with the
 * old password alone; and it offers to end every other session (ASVS 7.4.3).
 */
const h: Harness = useAuthHarness();
const NEW_PASSWORD = 'Brand-New-9';

const change = (cookie: string, oldPassword: string, extra: object = {}) =>
  h.app.inject({
    method: 'POST',
    url: '/api/me/password',
    remoteAddress: nextIp(),
    headers: { cookie },
    payload: { oldPassword, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, ...extra },
  });
const me = (cookie: string) => h.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });

describe('password change behind a recent re-authentication', () => {
  it('refuses a change more than 5 minutes after the last proof, until the user proves it again', async () => {
    const user = await registerUser(h);
    h.clock.advance(5 * 60_000 + 1_000);
    await me(user.cookie); // keeps the session alive (idle expiry is 30 minutes)
    expect((await change(user.cookie, user.password)).json().code).toBe('REAUTH_REQUIRED');
    const reauth = await h.app.inject({
      method: 'POST',
      url: '/api/me/security/reauth',
      remoteAddress: nextIp(),
      headers: { cookie: user.cookie },
      payload: { password: user.password },
    });
    expect(reauth.statusCode).toBe(204);
    expect((await change(user.cookie, user.password)).statusCode).toBe(204);
  });

  it('ends the other sessions unless the user chooses to keep them', async () => {
    const user = await registerUser(h);
    const other = sessionCookie(await login(h, user.username, user.password));
    expect((await change(user.cookie, user.password, { endOtherSessions: false })).statusCode).toBe(204);
    expect((await me(other)).statusCode).toBe(200);
    const third = sessionCookie(await login(h, user.username, NEW_PASSWORD));
    const back = await h.app.inject({
      method: 'POST',
      url: '/api/me/password',
      remoteAddress: nextIp(),
      headers: { cookie: third },
      payload: { oldPassword: NEW_PASSWORD, password: 'Other-Pass-77', confirmPassword: 'Other-Pass-77' },
    });
    expect(back.statusCode).toBe(204);
    expect((await me(other)).statusCode).toBe(401);
    expect((await me(user.cookie)).statusCode).toBe(401);
    expect((await me(third)).statusCode).toBe(200);
  });
});
