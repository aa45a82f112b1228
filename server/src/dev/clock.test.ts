import { describe, expect, it } from 'vitest';
import { unsafeSettings } from '../config-checks.ts';
import { useTestDatabase } from '../test/database.ts';
import { startDevClock } from './clock.ts';
import { buildDevApp } from './dev-server.ts';

describe('development clock', () => {
  const database = useTestDatabase();

  it('moves forward only, is shared through the database, and moves the local chains with it', async () => {
    const a = await startDevClock(database.db, 50);
    const b = await startDevClock(database.db, 50);
    const before = a.now().getTime();
    const advanced: number[] = [];
    const app = buildDevApp({
      db: database.db,
      devMailbox: false,
      clock: a,
      advanceChains: async (s) => void advanced.push(s),
    });
    const res = await app.inject({ method: 'POST', url: '/dev/clock', payload: { advanceSeconds: 86_400 } });
    expect(res.statusCode).toBe(200);
    expect(res.json().offsetMs).toBe(86_400_000);
    expect(advanced).toEqual([86_400]);
    expect(a.now().getTime() - before).toBeGreaterThanOrEqual(86_400_000);
    // Another instance reads the same offset from the database.
    await expect.poll(() => b.offsetMs()).toBe(86_400_000);
    await expect(a.advance(-1)).rejects.toThrow(RangeError);
    expect((await app.inject({ method: 'POST', url: '/dev/clock', payload: { advanceSeconds: 0 } })).statusCode).toBe(
      400,
    );
    a.stop();
    b.stop();
    await app.close();
  });

  it('answers 404 without DEV_CLOCK, and production refuses it', async () => {
    const app = buildDevApp({ db: database.db, devMailbox: false, clock: null });
    expect((await app.inject({ method: 'POST', url: '/dev/clock', payload: { advanceSeconds: 60 } })).statusCode).toBe(
      404,
    );
    await app.close();
    const base = { NODE_ENV: 'production', HOST: '127.0.0.1', SIGNER_ENABLED: false, DEV_CLOCK: true };
    expect(unsafeSettings(base, {})).toContain('DEV_CLOCK must not be on in production (it moves the server clock)');
    expect(unsafeSettings({ ...base, NODE_ENV: 'development', HOST: '0.0.0.0' }, {})).toEqual([
      'DEV_CLOCK needs a loopback HOST (got "0.0.0.0"): it moves the server clock',
    ]);
  });
});
