import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../app.ts';
import { buildTestApp } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { useTestRedis } from '../../test/redis.ts';
import { login, registerUser, useAuthHarness } from './test-helpers.ts';
import { accountLoginPolicy, fundPasswordPolicy } from './throttle-schedule.ts';
import { pgThrottleStore, type ThrottleStore } from './throttles.ts';
import { redisThrottleStore } from './throttles-redis.ts';

/** REDIS_URL: the failed-attempt throttles and the global rate limit count in a real redis-server. */
const redis = useTestRedis();
const database = useTestDatabase();
const at = new Date('2030-01-02T03:04:05.000Z');

describe.each([
  ['PostgreSQL', () => pgThrottleStore(database.db)],
  ['Redis', () => redisThrottleStore(redis.client)],
] as [string, () => ThrottleStore][])('throttle store in %s', (_name, store) => {
  it('counts every one of concurrent failures and locks after the free ones', async () => {
    const key = `race:${_name}`;
    await Promise.all(Array.from({ length: 12 }, () => store().recordFailure(key, accountLoginPolicy, at)));
    const state = await store().get(key);
    expect(state?.failures).toBe(12);
    // 12 failures, 5 free: the 7th locked one waits 30 s x 2^6, capped at an hour.
    expect(await store().lockedFor([key, 'nobody'], at)).toBe(1920);
  });

  it('starts afresh when cleared, and after the reset time', async () => {
    const key = `reset:${_name}`;
    for (let i = 0; i < 6; i++) await store().recordFailure(key, accountLoginPolicy, at);
    expect(await store().lockedFor([key], at)).toBe(30);
    await store().clear(key);
    expect(await store().get(key)).toBeUndefined();
    expect(await store().lockedFor([key], at)).toBe(0);
    await store().recordFailure(key, fundPasswordPolicy, at);
    const later = new Date(at.getTime() + fundPasswordPolicy.resetAfterSeconds * 1000);
    expect((await store().recordFailure(key, fundPasswordPolicy, later)).failures).toBe(1);
  });

  it('charges concurrent attempts atomically: only the unlocked ones pass, a refund lifts its own lock', async () => {
    const key = `charge:${_name}`;
    const charges = await Promise.all(Array.from({ length: 40 }, () => store().charge(key, accountLoginPolicy, at)));
    const passed = charges.filter((c) => c.state !== undefined);
    expect(passed).toHaveLength(accountLoginPolicy.freeFailures + 1);
    expect(charges.filter((c) => c.retryAfterSeconds === 30)).toHaveLength(40 - passed.length);
    // The last one charged set the lock; refunding it (the guess was right) lifts it.
    const last = passed.find((c) => c.state?.failures === accountLoginPolicy.freeFailures + 1);
    await store().refund(key, last?.state as NonNullable<typeof last>['state'] & object);
    expect(await store().lockedFor([key], at)).toBe(0);
    expect((await store().get(key))?.failures).toBe(accountLoginPolicy.freeFailures);
    // Refunding every other charge leaves nothing.
    for (const c of passed) if (c !== last && c.state) await store().refund(key, c.state);
    expect(await store().get(key)).toBeUndefined();
  });
});

describe('throttle keys in Redis', () => {
  it('expire once the lock is over and the run would start afresh', async () => {
    const store = redisThrottleStore(redis.client);
    await store.recordFailure('ttl', fundPasswordPolicy, at);
    const ttlMs = await redis.client.pttl('throttle:ttl');
    expect(ttlMs).toBeGreaterThan(3_590_000);
    expect(ttlMs).toBeLessThanOrEqual(3_600_000);
  });
});

describe('two API instances with REDIS_URL', () => {
  const h = useAuthHarness({
    get redis() {
      return redis.client;
    },
  });
  const apps: App[] = [];
  afterAll(() => Promise.all(apps.map((a) => a.close())));

  it('share the sign-in lock, and keep it out of PostgreSQL', async () => {
    const account = await registerUser(h);
    const other = buildApp({
      db: h.db,
      now: h.clock.now,
      redis: redis.client,
      rateLimit: { max: 100_000, windowMs: 60_000 },
    });
    apps.push(other);
    // A stranger's browser guessing (the owner's known browser has a counter of its own: login-steps.ts).
    const stranger = { device: null };
    for (let i = 0; i < 6; i++)
      expect((await login(h, account.username, 'Wrong-Pass1', undefined, stranger)).statusCode).toBe(401);
    const locked = await other.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.9.0.1',
      payload: { identifier: account.username, password: account.password },
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ code: 'LOGIN_THROTTLED', details: { retryAfterSeconds: 30 } });
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from throttles`.execute(h.db);
    expect(rows[0]?.n).toBe(0);
    h.clock.advance(30_000);
    // The right password from an unknown browser (a new-device confirmation follows) clears the counters.
    expect((await login(h, account.username, account.password, undefined, stranger)).statusCode).toBe(202);
    expect(await redis.client.exists(`throttle:account:${account.user.id}`)).toBe(0);
  });

  it('count one client together in the global rate limit', async () => {
    const instance = () => {
      const app = buildTestApp({ db: h.db, redis: redis.client, rateLimit: { max: 5, windowMs: 60_000 } });
      apps.push(app);
      return app;
    };
    const [a, b] = [instance(), instance()];
    const hit = (app: App, ip: string) => app.inject({ method: 'GET', url: '/api/me/settings', remoteAddress: ip });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await hit(i % 2 ? b : a, '10.8.0.1')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect((await hit(b, '10.8.0.2')).statusCode).toBe(401);
    const refused = await hit(a, '10.8.0.1');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } });
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from rate_limit_hits`.execute(h.db);
    expect(rows[0]?.n).toBe(0);
  });
});
