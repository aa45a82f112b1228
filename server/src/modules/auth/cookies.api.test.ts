import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { testConsoleSurface } from '../../test/app.ts';
import { addTestOperator, operatorSignInBody } from '../operators/test-helpers.ts';
import { login, nextIp, registerUser, sessionCookie, useAuthHarness } from './test-helpers.ts';

/**
 * Issue 38 item 7. Over HTTPS only `__Host-sid` is read: a plain `sid` can be planted by a sibling
 * subdomain (login CSRF into the attacker's account). The operator cookie follows SESSION_SECURE_COOKIE
 * and is `__Host-ops_sid` (Path=/) when Secure. Production insists on SESSION_SECURE_COOKIE=always.
 */
const h = useAuthHarness();
const https = { 'x-forwarded-proto': 'https' };

describe('session cookies over HTTPS', () => {
  it('a plain sid cookie is not a session on an HTTPS request; __Host-sid is', async () => {
    const account = await registerUser(h);
    const app = buildApp({
      db: h.db,
      now: h.clock.now,
      trustProxy: true,
      mail: { worker: false },
      console: testConsoleSurface,
    });
    try {
      const token = sessionCookie(await login(h, account.username, account.password)).split('=')[1];
      const planted = await app.inject({
        method: 'GET',
        url: '/api/me',
        headers: { ...https, cookie: `sid=${token}` },
      });
      expect(planted.statusCode).toBe(401);
      const real = await app.inject({
        method: 'GET',
        url: '/api/me',
        headers: { ...https, cookie: `__Host-sid=${token}` },
      });
      expect(real.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('the operator cookie is __Host-ops_sid (Secure, Path=/, no Domain) over HTTPS, and with SESSION_SECURE_COOKIE=always', async () => {
    const signIn = async (app: ReturnType<typeof buildApp>, headers: Record<string, string>, name: string) => {
      // Enrolled through this app (its own sealing key in tests), then signed in with the next code.
      const operator = await addTestOperator(app, { db: h.db, now: h.clock.now }, name);
      return app.inject({
        method: 'POST',
        url: '/api/ops/session',
        remoteAddress: nextIp(),
        headers,
        payload: operatorSignInBody(operator, h.clock.now()),
      });
    };
    const proxied = buildApp({
      db: h.db,
      now: h.clock.now,
      trustProxy: true,
      mail: { worker: false },
      console: testConsoleSurface,
    });
    const always = buildApp({
      db: h.db,
      now: h.clock.now,
      auth: { session: { secureCookie: 'always' } },
      mail: { worker: false },
      console: testConsoleSurface,
    });
    try {
      for (const [app, headers, name] of [
        [proxied, https, 'cookie_ops_proxied'],
        [always, {}, 'cookie_ops_always'],
      ] as const) {
        const res = await signIn(app, headers, name);
        expect(res.statusCode, res.body).toBe(200);
        const cookie = String(res.headers['set-cookie']);
        expect(cookie).toMatch(/^__Host-ops_sid=[A-Za-z0-9_-]{22};/);
        expect(cookie).toContain('Secure');
        // __Host- rules (a sibling subdomain cannot plant one): Path=/ and no Domain.
        expect(cookie).toContain('Path=/;');
        expect(cookie).not.toMatch(/Domain=/i);
        const value = cookie.split(';')[0]?.split('=')[1];
        const ok = await app.inject({
          method: 'GET',
          url: '/api/ops/session',
          headers: { ...headers, cookie: `__Host-ops_sid=${value}` },
        });
        expect(ok.json().operator).toMatchObject({ name });
        const plain = await app.inject({
          method: 'GET',
          url: '/api/ops/session',
          headers: { ...headers, cookie: `ops_sid=${value}` },
        });
        expect(plain.json().operator).toBeNull();
        // The old name, as a sibling could still plant it, is not read.
        const planted = await app.inject({
          method: 'GET',
          url: '/api/ops/session',
          headers: { ...headers, cookie: `__Secure-ops_sid=${value}` },
        });
        expect(planted.json().operator).toBeNull();
      }
    } finally {
      await proxied.close();
      await always.close();
    }
  });
});

describe('production', () => {
  it('refuses to start unless SESSION_SECURE_COOKIE=always', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SESSION_SECURE_COOKIE: 'auto' })).toThrow(
      /SESSION_SECURE_COOKIE must be always in production/,
    );
  });
});
