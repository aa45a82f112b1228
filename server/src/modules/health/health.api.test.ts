import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createDb } from '../../db/create-db.ts';
import { freePort } from '../../db/embedded-postgres.ts';
import { useTestDatabase } from '../../test/database.ts';

describe('health and readiness', () => {
  const database = useTestDatabase();

  it('GET /api/health is up without touching the database', async () => {
    const unreachable = createDb('postgres://nobody:x@127.0.0.1:1/none');
    const app = buildApp({ db: unreachable });
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    await unreachable.destroy();
  });

  it('GET /api/ready is 200 when PostgreSQL answers', async () => {
    const app = buildApp({ db: database.db });
    const res = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /api/ready is 503 SERVICE_UNAVAILABLE when the database is unreachable', async () => {
    const unreachable = createDb(`postgres://nobody:x@127.0.0.1:${await freePort()}/none`);
    const app = buildApp({ db: unreachable });
    const res = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'Database not reachable' });
    await unreachable.destroy();
  });
});
