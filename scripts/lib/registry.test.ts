import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

/** Lets a test hold one waiter between judging the lock stale and taking it over (the race of item 4). */
const race = vi.hoisted(() => ({ lockStats: 0, holdSecond: null as null | Promise<void> }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const stat = async (...args: Parameters<typeof actual.stat>) => {
    const result = await actual.stat(...args);
    if (race.holdSecond && String(args[0]).endsWith('remotes.json.lock') && ++race.lockStats === 2)
      await race.holdSecond;
    return result;
  };
  return { ...actual, default: { ...actual, stat }, stat };
});

// DEPLOY_DIR is read from STATIC_DIR when paths.ts loads: a folder of this test's own.
const dir = mkdtempSync(path.join(tmpdir(), 'cw-registry-'));
process.env.STATIC_DIR = dir;
const { activate, readHistory, readRegistry, recordDeploy, RegistryConflictError, withRegistryLock } = await import(
  './registry.ts'
);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('remotes.json writes (issue 40 item 7)', () => {
  it('deploys and rollbacks of different remotes at once all land: none overwrites another', async () => {
    const names = ['wallet', 'convert', 'rewards', 'mail', 'settings'] as const;
    await Promise.all(
      names.flatMap((name) =>
        [1, 2, 3].map(async (n) => {
          await recordDeploy(name, `0.1.0-${name}${n}`, [`/${name}`]);
          await activate(name, `0.1.0-${name}${n}`, [`/${name}`]);
        }),
      ),
    );
    const registry = await readRegistry();
    expect(Object.keys(registry.remotes).sort()).toEqual([...names].sort());
    for (const name of names) {
      expect((await readHistory(name)).versions).toHaveLength(3);
      expect((await readHistory(name)).current).toBe(registry.remotes[name]?.version);
    }
  });

  it('a rollback decided before a deploy landed is refused (compare-and-swap), and changes nothing', async () => {
    await activate('wallet', '0.1.0-a', ['/coinTopup']);
    const decidedFrom = (await readRegistry()).remotes.wallet?.version ?? null;
    await activate('wallet', '0.1.0-b', ['/coinTopup']); // the racing deploy
    await expect(activate('wallet', '0.1.0-old', ['/coinTopup'], decidedFrom)).rejects.toBeInstanceOf(
      RegistryConflictError,
    );
    expect((await readRegistry()).remotes.wallet?.version).toBe('0.1.0-b');
    await activate('wallet', '0.1.0-old', ['/coinTopup'], '0.1.0-b');
    expect((await readRegistry()).remotes.wallet?.manifest).toBe('/remotes/wallet/0.1.0-old/mf-manifest.json');
  });
});

describe('registry lock: a stale lock is taken over by one waiter only (security review of issue 40, item 4)', () => {
  const lock = path.join(dir, 'remotes.json.lock');
  const staleLock = () => {
    writeFileSync(lock, 'dead-deploy\n');
    const longAgo = new Date(Date.now() - 10 * 60_000);
    utimesSync(lock, longAgo, longAgo);
  };

  it('several waiters finding the same stale lock never run at once', async () => {
    let inside = 0;
    let most = 0;
    let runs = 0;
    for (let round = 0; round < 15; round++) {
      staleLock();
      await Promise.all(
        Array.from({ length: 4 }, () =>
          withRegistryLock(async () => {
            inside++;
            most = Math.max(most, inside);
            runs++;
            await new Promise((resolve) => setTimeout(resolve, 5));
            inside--;
          }),
        ),
      );
    }
    expect(runs).toBe(60);
    expect(most).toBe(1);
    // Nothing left behind: no lock, no renamed stale lock.
    expect(readdirSync(dir).filter((name) => name.includes('.lock'))).toEqual([]);
  });
});

describe('registry lock: the stale-lock race, played out step by step', () => {
  it('a waiter that judged the lock stale before another took it over does not take the new lock', async () => {
    const lock = path.join(dir, 'remotes.json.lock');
    writeFileSync(lock, 'dead-deploy\n');
    const longAgo = new Date(Date.now() - 10 * 60_000);
    utimesSync(lock, longAgo, longAgo);
    let firstInside!: () => void;
    race.lockStats = 0;
    race.holdSecond = new Promise<void>((resolve) => {
      firstInside = resolve;
    });
    const order: string[] = [];
    const run = (who: string) =>
      withRegistryLock(async () => {
        order.push(`${who} in`);
        firstInside();
        await new Promise((resolve) => setTimeout(resolve, 100));
        order.push(`${who} out`);
      });
    // A and B both find the stale lock; the second to judge it stale is held there until the other one
    // has taken it over and holds the new lock.
    await Promise.all([run('A'), run('B')]);
    race.holdSecond = null;
    expect(race.lockStats).toBeGreaterThanOrEqual(2);
    expect(order.map((step) => step.split(' ')[1])).toEqual(['in', 'out', 'in', 'out']);
  });
});
