import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.ts';
import { fenceOf } from '../leases/leader.ts';
import { tryAcquire } from '../leases/lease.ts';
import { judgeCanary } from './canary-health.ts';
import { watchCanariesOnce } from './canary-watch.ts';
import { endCanaryInRegistry } from './registry-end-canary.ts';
import { recordClientEvents } from './repository.ts';
import type { ClientEvent } from './schemas.ts';

const settings = { marginPct: 5, minLoads: 20 };

describe('judgeCanary', () => {
  it('waits below minLoads, keeps within the margin, rolls back past it (exact at the boundary)', () => {
    expect(judgeCanary({ loads: 0, failures: 19 }, { loads: 100, failures: 0 }, settings).action).toBe('wait');
    // 10 % vs 5 %: exactly 5 points more is not past the margin.
    expect(judgeCanary({ loads: 90, failures: 10 }, { loads: 95, failures: 5 }, settings).action).toBe('keep');
    expect(judgeCanary({ loads: 89, failures: 11 }, { loads: 95, failures: 5 }, settings).action).toBe('rollback');
    // A stable with no reports counts as never failing.
    expect(judgeCanary({ loads: 18, failures: 2 }, { loads: 0, failures: 0 }, settings).action).toBe('rollback');
    expect(judgeCanary({ loads: 20, failures: 1 }, { loads: 0, failures: 0 }, settings).action).toBe('keep');
  });
});

describe('canary watch (synthetic counts)', () => {
  const database = useTestDatabase();
  beforeEach(async () => {
    await sql`truncate client_event_counts, canary_auto_rollbacks, leases`.execute(database.db);
  });

  async function setup(canary: object) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'canary-watch-'));
    const registryFile = path.join(dir, 'remotes.json');
    const registry = {
      bucketSalt: 's',
      remotes: {
        wallet: { version: '1.0.0', manifest: '/remotes/wallet/1.0.0/mf-manifest.json', routes: ['/wallet'], canary },
        convert: { version: '2.0.0', manifest: '/remotes/convert/2.0.0/mf-manifest.json' },
      },
    };
    await writeFile(registryFile, JSON.stringify(registry));
    const token = await tryAcquire(database.db, 'canary-watch', 'test', 5_000);
    if (token === null) throw new Error('lease');
    const deps = {
      db: database.db,
      registryFile,
      fence: fenceOf('canary-watch', token),
      endCanary: (remote: string, version: string) => endCanaryInRegistry(registryFile, remote, version),
    };
    const read = async () => JSON.parse(await readFile(registryFile, 'utf8')).remotes.wallet;
    return { deps, read };
  }
  const events = (version: string, loads: number, failures: number): ClientEvent[] => [
    ...Array.from({ length: loads }, () => ({ remote: 'wallet', version, kind: 'load' as const })),
    ...Array.from({ length: failures }, () => ({
      remote: 'wallet',
      version,
      kind: 'failure' as const,
      code: 'RUNTIME-008',
    })),
  ];
  const canary = (autoRollback?: object) => ({
    version: '1.1.0',
    manifest: '/remotes/wallet/1.1.0/mf-manifest.json',
    percent: 50,
    startedAt: new Date(Date.now() - 60_000).toISOString(),
    ...(autoRollback && { autoRollback }),
  });

  it('rolls back a failing canary on its own, records why, and leaves stable and other remotes alone', async () => {
    const { deps, read } = await setup(canary(settings));
    await recordClientEvents(database.db, events('1.0.0', 20, 0));
    await recordClientEvents(database.db, events('1.1.0', 10, 0));
    // 10 attempts: too few for a verdict even though later ones fail.
    expect(await watchCanariesOnce(deps)).toEqual([]);
    await recordClientEvents(database.db, events('1.1.0', 0, 10));
    expect(await watchCanariesOnce(deps)).toEqual(['wallet']);
    const wallet = await read();
    expect(wallet.canary).toBeUndefined();
    expect(wallet.version).toBe('1.0.0');
    const decision = await database.db.selectFrom('canary_auto_rollbacks').selectAll().executeTakeFirstOrThrow();
    expect(decision).toMatchObject({
      remote: 'wallet',
      canary_version: '1.1.0',
      canary_failures: '10',
      canary_loads: '10',
    });
    expect(decision.done_at).not.toBeNull();
    // Nothing left to do on the next pass.
    expect(await watchCanariesOnce(deps)).toEqual([]);
  });

  it('keeps a healthy canary, and never touches a canary without --auto-rollback', async () => {
    const healthy = await setup(canary(settings));
    await recordClientEvents(database.db, [...events('1.0.0', 40, 2), ...events('1.1.0', 38, 2)]);
    expect(await watchCanariesOnce(healthy.deps)).toEqual([]);
    expect((await healthy.read()).canary.version).toBe('1.1.0');
    await recordClientEvents(database.db, events('1.1.0', 0, 20));
    const manual = await setup(canary());
    expect(await watchCanariesOnce(manual.deps)).toEqual([]);
    expect((await manual.read()).canary.version).toBe('1.1.0');
  });

  it('a stale lease cannot record a rollback (fenced)', async () => {
    const { deps } = await setup(canary(settings));
    await recordClientEvents(database.db, events('1.1.0', 0, 30));
    await sql`update leases set token = token + 1 where role = 'canary-watch'`.execute(database.db);
    await expect(watchCanariesOnce(deps)).rejects.toThrow(/lease/i);
    expect(await database.db.selectFrom('canary_auto_rollbacks').selectAll().execute()).toEqual([]);
  });
});
