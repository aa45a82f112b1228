import { describe, expect, it } from 'vitest';
import { clientNetwork } from '../../lib/client-network.ts';
import { buildTestApp } from '../../test/app.ts';
import { login, registerUser, requestCode, STRONG_PASSWORD, useAuthHarness } from './test-helpers.ts';
import { accountLoginPolicy, ipLoginPolicy } from './throttle-schedule.ts';

/**
 * Per-IP limits count an IPv6 client by its /64 (lib/client-network.ts): one machine is commonly given
 * a whole /64, and before, every address of it had a budget of its own (sign-in guesses, code mails,
 * the global rate limit). Another /64 keeps its own budget.
 */
const CODES_PER_NETWORK_HOUR = 3;
const h = useAuthHarness({
  rateLimit: { max: 1_000, windowMs: 60_000 },
  auth: { codeLimits: { resendAfterSeconds: 0, perAddressPerHour: 100, perIpPerHour: CODES_PER_NETWORK_HOUR } },
});

/** The n-th address of a /64 (a machine's privacy addresses). */
const inNetwork = (net: number, n: number) => `2001:db8:${net.toString(16)}:1:${n.toString(16)}:0:0:1`;

describe('per-IP limits by network', () => {
  it('maps addresses to what they are counted by', () => {
    expect(clientNetwork(inNetwork(7, 1))).toBe(clientNetwork(inNetwork(7, 999)));
    expect(clientNetwork(inNetwork(7, 1))).not.toBe(clientNetwork(inNetwork(8, 1)));
    expect(clientNetwork('::ffff:198.51.100.7')).toBe('198.51.100.7');
  });

  it('sign-in: wrong guesses from many addresses of one /64 share its allowance', async () => {
    const guess = (ip: string, i: number) =>
      h.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: ip,
        payload: { identifier: `nobody_v6_${i}`, password: 'Wrong-Guess-1' },
      });
    const codes: string[] = [];
    for (let i = 0; i <= ipLoginPolicy.freeFailures + 1; i++) {
      const res = await guess(inNetwork(1, i + 1), i);
      codes.push((res.json() as { code: string }).code);
    }
    expect(codes.slice(0, ipLoginPolicy.freeFailures)).not.toContain('LOGIN_THROTTLED');
    expect(codes.at(-1)).toBe('LOGIN_THROTTLED');
    // Another network is not locked out by this one.
    expect((await guess(inNetwork(2, 1), 1_000)).json()).toMatchObject({ code: 'INVALID_CREDENTIALS' });
  }, 60_000);

  it('a network locked by someone guessing does not lock out an owner on a browser they confirmed', async () => {
    const owner = await registerUser(h);
    for (let i = 0; i <= ipLoginPolicy.freeFailures + 1; i++) {
      await h.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: inNetwork(9, 100 + i),
        payload: { identifier: `guess_${i}`, password: 'Wrong-Guess-1' },
      });
    }
    const elsewhere = await login(h, owner.username, STRONG_PASSWORD, inNetwork(9, 1), { device: null });
    expect(elsewhere.json()).toMatchObject({ code: 'LOGIN_THROTTLED' });
    // The same network, the owner's known browser: signed in.
    const known = await login(h, owner.username, STRONG_PASSWORD, inNetwork(9, 2));
    expect(known.statusCode, known.body).toBe(200);
    // Its wrong guesses count on its own counter: a stolen device cookie gets five, then waits.
    const answers: string[] = [];
    for (let i = 0; i <= accountLoginPolicy.freeFailures + 1; i++)
      answers.push((await login(h, owner.username, 'Wrong-Guess-1', inNetwork(9, 3))).json().code);
    expect(answers.slice(0, accountLoginPolicy.freeFailures)).toEqual(
      Array(accountLoginPolicy.freeFailures).fill('INVALID_CREDENTIALS'),
    );
    expect(answers.at(-1)).toBe('LOGIN_THROTTLED');
  }, 60_000);

  it('strangers guessing a name lock their own attempts out, not the owner on a browser they confirmed', async () => {
    const owner = await registerUser(h);
    const stranger = { device: null };
    for (let i = 0; i <= accountLoginPolicy.freeFailures + 1; i++)
      await login(h, owner.username, 'Wrong-Guess-1', inNetwork(10 + i, 1), stranger);
    // The name and the account are locked for strangers: the right password from an unknown browser too.
    const unknownBrowser = await login(h, owner.email, STRONG_PASSWORD, inNetwork(30, 1), stranger);
    expect(unknownBrowser.json()).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect((await login(h, owner.username, STRONG_PASSWORD, inNetwork(30, 2), stranger)).statusCode).toBe(429);
    // The owner's phone signs in, by name or e-mail, and does not lift the strangers' lock.
    expect((await login(h, owner.username, STRONG_PASSWORD, inNetwork(31, 1))).statusCode).toBe(200);
    expect((await login(h, owner.email, STRONG_PASSWORD, inNetwork(31, 1))).statusCode).toBe(200);
    const still = await login(h, owner.email, STRONG_PASSWORD, inNetwork(30, 3), stranger);
    expect(still.json()).toMatchObject({ code: 'INVALID_CREDENTIALS' });
  }, 60_000);

  it('a known browser’s wrong guesses share the account’s budget with strangers; locked, it is a stranger', async () => {
    const owner = await registerUser(h);
    const stranger = { device: null };
    const fromPhone = (password: string) => login(h, owner.username, password, inNetwork(40, 1));
    for (let i = 0; i < accountLoginPolicy.freeFailures; i++)
      expect((await fromPhone('Wrong-Guess-1')).json().code).toBe('INVALID_CREDENTIALS');
    // One stranger's wrong guess is the account's sixth failure: locked for strangers, right password or not.
    await login(h, owner.email, 'Wrong-Guess-1', inNetwork(41, 1), stranger);
    expect((await login(h, owner.email, STRONG_PASSWORD, inNetwork(42, 1), stranger)).json().code).toBe(
      'INVALID_CREDENTIALS',
    );
    // The phone's sixth wrong guess locks its own counter; from then on it is a stranger: the account's
    // lock binds it too, so the right password is refused until the locks run out.
    expect((await fromPhone('Wrong-Guess-1')).json().code).toBe('INVALID_CREDENTIALS');
    expect((await fromPhone(STRONG_PASSWORD)).json().code).toBe('INVALID_CREDENTIALS');
    h.clock.advance(3_600_000);
    expect((await fromPhone(STRONG_PASSWORD)).statusCode).toBe(200);
  }, 60_000);

  it('code mails: the hourly count per network holds across its addresses', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= CODES_PER_NETWORK_HOUR; i++) {
      const res = await requestCode(h, { purpose: 'register', email: `v6_${i}@example.com`, ip: inNetwork(3, i + 1) });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
    const other = await requestCode(h, { purpose: 'register', email: 'v6_other@example.com', ip: inNetwork(4, 1) });
    expect(other.statusCode).toBe(202);
  });

  // @fastify/rate-limit does this itself (ipv6Subnet, default 64): kept so an upgrade cannot undo it.
  it('the global rate limit counts a /64 as one client', async () => {
    const app = buildTestApp({ db: h.db, rateLimitStore: 'database', rateLimit: { max: 3, windowMs: 60_000 } });
    try {
      const hit = (ip: string) => app.inject({ method: 'GET', url: '/api/me/settings', remoteAddress: ip });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await hit(inNetwork(5, i + 1))).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      expect((await hit(inNetwork(6, 1))).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });
});
