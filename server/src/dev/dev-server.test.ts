import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { useTestDatabase } from '../test/database.ts';
import { startDevClock } from './clock.ts';
import { DEV_HOST, devPortFromEnv, startDevServer } from './dev-server.ts';

/**
 * Issue 38 item 11: the dev mailbox (every user's e-mail codes) and the dev clock trusted request.ip,
 * which a local proxy without TRUST_PROXY makes 127.0.0.1 for everyone. They now live on their own
 * listener bound to 127.0.0.1; the app port answers 404 for them, however the request is dressed.
 */
describe('dev routes are on a loopback-only listener, never on the app port', () => {
  const database = useTestDatabase();
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('the app port answers 404 for the dev mailbox and clock, with DEV_MAILBOX and DEV_CLOCK on, even from loopback', {
    timeout: 180_000,
  }, async () => {
    const app = buildApp({ db: database.db, mail: { worker: false, devMailbox: true } });
    closers.push(() => app.close());
    const asks = [
      { method: 'GET', url: '/dev/mailbox' },
      { method: 'GET', url: '/dev/mailbox.json' },
      { method: 'GET', url: '/%64ev/mailbox.json' },
      { method: 'POST', url: '/dev/clock', payload: { advanceSeconds: 60 } },
    ] as const;
    for (const ask of asks) {
      // As a local reverse proxy without TRUST_PROXY would forward it: from 127.0.0.1.
      const res = await app.inject({ ...ask, remoteAddress: '127.0.0.1' });
      expect({ url: ask.url, status: res.statusCode }).toEqual({ url: ask.url, status: 404 });
      expect(res.body).not.toContain('messages');
    }
  });

  it('the dev listener binds 127.0.0.1 only and serves the mailbox and the clock there', async () => {
    const clock = await startDevClock(database.db, 50);
    closers.push(async () => clock.stop());
    const dev = await startDevServer({ db: database.db, devMailbox: true, clock, port: 0 });
    closers.push(() => dev.close());
    expect(dev.url).toMatch(new RegExp(`^http://${DEV_HOST.replace(/\./g, '\\.')}:\\d+$`));
    const mailbox = await fetch(`${dev.url}/dev/mailbox.json`);
    expect(mailbox.status).toBe(200);
    expect(await mailbox.json()).toHaveProperty('messages');
    const moved = await fetch(`${dev.url}/dev/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceSeconds: 60 }),
    });
    expect(moved.status).toBe(200);
  });

  it('DEV_PORT: a port, 0 or off; anything else is a configuration error', () => {
    expect(devPortFromEnv({})).toBe(9465);
    expect(devPortFromEnv({ DEV_PORT: '18212' })).toBe(18212);
    expect(devPortFromEnv({ DEV_PORT: 'off' })).toBeNull();
    expect(() => devPortFromEnv({ DEV_PORT: '70000' })).toThrow(/DEV_PORT/);
  });
});
