import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { countsByVersion } from './repository.ts';
import { clientEventsPerMinute } from './routes.ts';

describe('POST /api/client-events', () => {
  const database = useTestDatabase();
  beforeEach(async () => {
    await sql`truncate client_event_counts`.execute(database.db);
  });
  const post = (app: ReturnType<typeof buildApp>, payload: unknown) =>
    app.inject({ method: 'POST', url: '/api/client-events', payload: payload as object });

  it('counts loads and failures per version and error code in one row per combination, not per event', async () => {
    const app = buildApp({ db: database.db });
    const events = [
      ...Array.from({ length: 5 }, () => ({ remote: 'wallet', version: '1.0.0-a', kind: 'load' })),
      { remote: 'wallet', version: '1.1.0-b', kind: 'load' },
      { remote: 'wallet', version: '1.1.0-b', kind: 'failure', code: 'RUNTIME-008' },
      { remote: 'wallet', version: '1.1.0-b', kind: 'failure', code: 'INTEGRITY' },
      { remote: 'wallet', version: '1.1.0-b', kind: 'failure' },
      { remote: 'wallet', version: '1.1.0-b', kind: 'failure', code: 'SCREEN' },
    ];
    expect((await post(app, { events })).statusCode).toBe(204);
    expect((await post(app, { events })).statusCode).toBe(204);
    const rows = await database.db.selectFrom('client_event_counts').selectAll().execute();
    expect(rows).toHaveLength(6);
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual([
      'bucket_start',
      'error_code',
      'events',
      'kind',
      'remote',
      'version',
    ]);
    expect(await countsByVersion(database.db, 'wallet', new Date(Date.now() - 60_000))).toEqual([
      { version: '1.0.0-a', loads: 10, failures: 0, codes: {} },
      {
        version: '1.1.0-b',
        loads: 2,
        failures: 8,
        codes: { 'RUNTIME-008': 2, INTEGRITY: 2, UNKNOWN: 2, SCREEN: 2 },
      },
    ]);
  });

  it('refuses what would grow the table or carry anything else: unknown codes, extra fields, long names, too many events', async () => {
    const app = buildApp({ db: database.db });
    const one = { remote: 'wallet', version: '1.0.0', kind: 'failure', code: 'RUNTIME-001' };
    for (const bad of [
      { events: [{ ...one, code: 'anything the client likes' }] },
      { events: [{ ...one, userId: 'u1' }] },
      { events: [{ ...one, remote: 'x'.repeat(41) }] },
      { events: [{ ...one, version: '../../etc' }] },
      { events: Array.from({ length: 21 }, () => one) },
      { events: [] },
    ]) {
      const res = await post(app, bad);
      expect(res.statusCode, JSON.stringify(bad).slice(0, 80)).toBe(400);
    }
    const big = await app.inject({
      method: 'POST',
      url: '/api/client-events',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ events: [one], pad: 'x'.repeat(5_000) }),
    });
    expect(big.statusCode).toBe(413);
    expect(await database.db.selectFrom('client_event_counts').selectAll().execute()).toEqual([]);
  });

  it('is rate-limited per client in PostgreSQL (429 past the per-minute allowance)', async () => {
    const app = buildApp({ db: database.db, rateLimitStore: 'database', rateLimit: { max: 600, windowMs: 60_000 } });
    // A thirtieth of the global limit, at least 30 (e2e raises the global limit for one shared IP).
    expect(clientEventsPerMinute(600)).toBe(30);
    expect(clientEventsPerMinute(20_000)).toBe(666);
    const payload = { events: [{ remote: 'wallet', version: '1.0.0', kind: 'load' }] };
    const codes: number[] = [];
    for (let i = 0; i < 32; i += 1) codes.push((await post(app, payload)).statusCode);
    expect(codes.slice(0, 30).every((c) => c === 204)).toBe(true);
    expect(codes.at(-1)).toBe(429);
  });
});
