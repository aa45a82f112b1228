import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded-postgres.ts';
import { reachableBinaries, STAGE_ROOT } from './embedded-postgres-reach.ts';

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

  // As root, PostgreSQL runs as the postgres user: a checkout in a 0700 folder (root's home, mktemp -d)
  // must still work, with the cluster and, if needed, the binaries staged where that user can reach.
  it.runIf(process.getuid?.() === 0)('starts from a folder inside a private (0700) parent', async () => {
    const privateParent = await mkdtemp(path.join(os.tmpdir(), 'cw-private-'));
    dirs.push(privateParent);
    await chmod(privateParent, 0o700);
    const dir = path.join(privateParent, 'checkout', '.data');
    const logs: string[] = [];
    const server = await startEmbeddedPostgres({ dir, ephemeral: true, log: (m) => logs.push(m) });
    try {
      expect(await query(server.url(), 'select 1 as one')).toEqual([{ one: 1 }]);
      const location = (await readFile(path.join(dir, 'pg-location'), 'utf8')).trim();
      expect(location.startsWith(STAGE_ROOT)).toBe(true);
      expect(server.dataDir).toBe(location);
      expect(logs.some((l) => l.includes('cannot reach'))).toBe(true);
    } finally {
      await server.stop();
      await rm(path.dirname(server.dataDir), { recursive: true, force: true });
    }
  });

  it.runIf(process.getuid?.() === 0)('stages binaries the postgres user cannot reach', async () => {
    const privateParent = await mkdtemp(path.join(os.tmpdir(), 'cw-private-bin-'));
    dirs.push(privateParent);
    await chmod(privateParent, 0o700);
    const { postgres } = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { postgres: string };
    const pkgDir = path.dirname(path.dirname(path.dirname(postgres)));
    const copy = path.join(privateParent, 'pkg');
    await mkdir(copy);
    await cp(path.join(pkgDir, 'package.json'), path.join(copy, 'package.json'));
    await cp(path.join(pkgDir, 'native'), path.join(copy, 'native'), { recursive: true, verbatimSymlinks: true });
    const bin = { postgres: path.join(copy, 'native/bin/postgres'), initdb: path.join(copy, 'native/bin/initdb') };
    const ids = { uid: Number((await readFile('/etc/passwd', 'utf8')).match(/^postgres:x:(\d+):/m)?.[1]), gid: 0 };
    expect(Number.isInteger(ids.uid)).toBe(true);
    const staged = await reachableBinaries(bin, ids, () => undefined);
    expect(staged.postgres.startsWith(STAGE_ROOT)).toBe(true);
    expect(existsSync(staged.initdb)).toBe(true);
  });
});
