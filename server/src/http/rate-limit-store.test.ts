import { afterAll, describe, expect, it } from 'vitest';
import type { App } from '../app.ts';
import { buildTestApp } from '../test/app.ts';
import { useTestDatabase } from '../test/database.ts';

/** Two app instances on one database count a client together (the server's 'database' store). */
describe('global rate limit in PostgreSQL', () => {
  const database = useTestDatabase();
  const apps: App[] = [];
  afterAll(() => Promise.all(apps.map((a) => a.close())));
  const instance = (max: number, windowMs = 60_000) => {
    const app = buildTestApp({ db: database.db, rateLimit: { max, windowMs }, rateLimitStore: 'database' });
    apps.push(app);
    return app;
  };
  const hit = (app: App, ip: string) =>
    app.inject({ method: 'GET', url: '/api/me/settings', remoteAddress: ip }).then((r) => r.statusCode);

  it('counts one client across instances, and clients apart', async () => {
    const [a, b] = [instance(5), instance(5)];
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push(await hit(i % 2 ? b : a, '10.1.0.1'));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(await hit(b, '10.1.0.2')).toBe(401);
    const refused = await b.inject({ method: 'GET', url: '/api/me/settings', remoteAddress: '10.1.0.1' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } });
  });

  it('lets exactly max through a race on one instance, and at most a quarter more per other instance', async () => {
    const one = instance(25);
    const alone = await Promise.all(Array.from({ length: 60 }, () => hit(one, '10.2.0.1')));
    expect(alone.filter((s) => s !== 429)).toHaveLength(25);
    const [a, b] = [instance(25), instance(25)];
    const split = await Promise.all(Array.from({ length: 60 }, (_, i) => hit(i % 2 ? b : a, '10.2.0.2')));
    const through = split.filter((s) => s !== 429).length;
    expect(through).toBeGreaterThanOrEqual(25);
    expect(through).toBeLessThanOrEqual(25 + Math.floor(25 / 4));
  });

  it('starts a new window once the old one ended', async () => {
    const app = instance(2, 1000);
    expect([await hit(app, '10.3.0.1'), await hit(app, '10.3.0.1'), await hit(app, '10.3.0.1')]).toEqual([
      401, 401, 429,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await hit(app, '10.3.0.1')).toBe(401);
  });
});
