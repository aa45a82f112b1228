import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(path.join(tmpdir(), 'cw-canary-'));
process.env.STATIC_DIR = dir;
const { activate, readHistory, readRegistry, RegistryConflictError } = await import('./registry.ts');
const { endCanary, promoteCanary, startCanary, pinVisitor } = await import('./canary.ts');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sri = `sha384-${'c'.repeat(64)}`;
const sealed = (version: string) => ({
  version,
  manifest: `/remotes/wallet/${version}/mf-manifest.json`,
  manifestIntegrity: sri,
  entry: `/remotes/wallet/${version}/remoteEntry.js`,
  integrity: sri,
});

describe('canary registry writes (issue 35 item 3)', () => {
  it('start, promote: one compare-and-swap each; the stable and history follow', async () => {
    await activate('wallet', '1-a', ['/coinTopup'], undefined, sealed('1-a'));
    await startCanary('wallet', sealed('1-b'), 10, '1-a');
    const running = (await readRegistry()).remotes.wallet;
    expect(running?.version).toBe('1-a');
    expect(running?.canary).toMatchObject({ version: '1-b', percent: 10 });
    expect((await readRegistry()).bucketSalt).toMatch(/^[\w-]{22}$/);
    await promoteCanary('wallet', '1-b');
    const promoted = (await readRegistry()).remotes.wallet;
    expect(promoted?.version).toBe('1-b');
    expect(promoted?.canary).toBeUndefined();
    expect((await readHistory('wallet')).current).toBe('1-b');
  });

  it('two canary deploys racing: one lands, the other is refused and changes nothing', async () => {
    const results = await Promise.allSettled([
      startCanary('wallet', sealed('1-c'), 50, '1-b'),
      startCanary('wallet', sealed('1-d'), 50, '1-b'),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(RegistryConflictError);
    const winner = (await readRegistry()).remotes.wallet?.canary?.version;
    expect(['1-c', '1-d']).toContain(winner);
    // A rollback decided on the other canary is refused; on the winner it ends the canary.
    await expect(endCanary('wallet', winner === '1-c' ? '1-d' : '1-c')).rejects.toBeInstanceOf(RegistryConflictError);
    await endCanary('wallet', winner as string);
    expect((await readRegistry()).remotes.wallet).toMatchObject({ version: '1-b' });
    expect((await readRegistry()).remotes.wallet?.canary).toBeUndefined();
  });

  it('a canary on a stable that changed meanwhile is refused; a bad percent too', async () => {
    await expect(startCanary('wallet', sealed('1-e'), 10, '1-a')).rejects.toBeInstanceOf(RegistryConflictError);
    await expect(startCanary('wallet', sealed('1-e'), 0, '1-b')).rejects.toBeInstanceOf(RangeError);
    await expect(startCanary('wallet', sealed('1-e'), 101, '1-b')).rejects.toBeInstanceOf(RangeError);
  });

  it('pins survive a new stable deploy and are lifted by unpin', async () => {
    await pinVisitor('wallet', 'u:42', sealed('1-a'));
    await activate('wallet', '1-f', ['/coinTopup'], undefined, sealed('1-f'));
    expect((await readRegistry()).remotes.wallet?.pins?.['u:42']?.version).toBe('1-a');
    await pinVisitor('wallet', 'u:42', null);
    expect((await readRegistry()).remotes.wallet?.pins).toBeUndefined();
  });
});

describe('--auto-rollback (issue 35)', () => {
  it('records its settings and the start time with the canary; bad settings are refused and change nothing', async () => {
    const stable = (await readRegistry()).remotes.wallet?.version as string;
    await expect(
      startCanary('wallet', sealed('9-x'), 10, stable, { marginPct: 101, minLoads: 20 }),
    ).rejects.toBeInstanceOf(RangeError);
    await expect(
      startCanary('wallet', sealed('9-x'), 10, stable, { marginPct: 5, minLoads: 0 }),
    ).rejects.toBeInstanceOf(RangeError);
    expect((await readRegistry()).remotes.wallet?.canary).toBeUndefined();
    const before = Date.now();
    await startCanary('wallet', sealed('9-x'), 10, stable, { marginPct: 5, minLoads: 20 });
    const canary = (await readRegistry()).remotes.wallet?.canary;
    expect(canary?.autoRollback).toEqual({ marginPct: 5, minLoads: 20 });
    expect(Date.parse(canary?.startedAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    await endCanary('wallet', '9-x');
  });
});
