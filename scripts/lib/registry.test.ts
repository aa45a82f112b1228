import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// DEPLOY_DIR is read from STATIC_DIR when paths.ts loads: a folder of this test's own.
const dir = mkdtempSync(path.join(tmpdir(), 'cw-registry-'));
process.env.STATIC_DIR = dir;
const { activate, readHistory, readRegistry, recordDeploy, RegistryConflictError } = await import('./registry.ts');

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
