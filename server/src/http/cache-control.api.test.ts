import { describe, expect, it } from 'vitest';
import { login, registerUser, sessionCookie, useAuthHarness } from '../modules/auth/test-helpers.ts';

const h = useAuthHarness();

describe('Cache-Control of API answers', () => {
  it('signed-in answers (and the sign-in itself) are never stored; a route may say otherwise', async () => {
    const account = await registerUser(h);
    const signIn = await login(h, account.username, account.password);
    expect(signIn.headers['cache-control']).toBe('no-store');
    const cookie = sessionCookie(signIn);
    for (const url of ['/api/me', '/api/session', '/api/me/sessions', '/api/me/settings']) {
      const res = await h.app.inject({ method: 'GET', url, headers: { cookie } });
      expect([url, res.statusCode, res.headers['cache-control']]).toEqual([url, 200, 'no-store']);
    }
    const unauthenticated = await h.app.inject({ method: 'GET', url: '/api/me' });
    expect(unauthenticated.headers['cache-control']).toBe('no-store');
    // The catalogue is the same for everyone: it may be kept and revalidated.
    expect((await h.app.inject({ method: 'GET', url: '/api/catalogue' })).headers['cache-control']).toBe('no-cache');
  });
});
