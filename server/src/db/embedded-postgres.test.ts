import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded-postgres.ts';

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('initialises once and reuses the data folder on the next start', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-embedded-pg-'));
    dirs.push(dir);
    const logs: string[] = [];
    const first = await startEmbeddedPostgres({ dir, ephemeral: true, log: (m) => logs.push(m) });
    expect(logs.some((l) => l.startsWith('initialising'))).toBe(true);
    await first.ensureDatabase('app');
    await first.ensureDatabase('app');
    await query(first.url('app'), 'create table marker (id int); insert into marker values (42)');
    const pgVersion = await stat(path.join(dir, 'pg', 'PG_VERSION'));
    await first.stop();
    expect(existsSync(path.join(dir, 'pg', 'postmaster.pid'))).toBe(false);

    logs.length = 0;
    const second = await startEmbeddedPostgres({ dir, ephemeral: true, log: (m) => logs.push(m) });
    try {
      expect(logs.some((l) => l.startsWith('initialising'))).toBe(false);
      expect((await stat(path.join(dir, 'pg', 'PG_VERSION'))).mtimeMs).toBe(pgVersion.mtimeMs);
      expect(await query(second.url('app'), 'select id from marker')).toEqual([{ id: 42 }]);
      expect(second.url()).toMatch(/^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
    } finally {
      await second.stop();
    }
  });
});
