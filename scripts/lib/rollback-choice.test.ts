import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// DEPLOY_DIR is read from STATIC_DIR when paths.ts loads: a folder of this test's own.
const dir = mkdtempSync(path.join(tmpdir(), 'cw-rollback-'));
process.env.STATIC_DIR = dir;
const { activate, readRegistry, recordDeploy, rollbackTarget } = await import('./registry.ts');
const { endCanary, promoteCanary, startCanary } = await import('./canary.ts');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const sri = `sha384-${'r'.repeat(64)}`;
const sealed = (version: string) => ({
  manifest: `/remotes/mail/${version}/mf-manifest.json`,
  manifestIntegrity: sri,
  entry: `/remotes/mail/${version}/remoteEntry.js`,
  integrity: sri,
});
const routes = ['/mail'];
/** A deploy for everyone, as go-live.ts makes it. */
async function deploy(version: string): Promise<void> {
  await recordDeploy('mail', version, routes, sealed(version));
  await activate('mail', version, routes, undefined, sealed(version));
}
/** `npm run rollback -- mail [version]`, the script itself. */
async function rollback(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/rollback.ts', 'mail', ...args], {
    cwd: ROOT,
    env: { ...process.env, STATIC_DIR: dir },
  });
  return stdout;
}
const live = async () => (await readRegistry()).remotes.mail?.version;

describe('rollback goes back to the version live before the last change (issue 35, the flaky deploy-rollback e2e)', () => {
  it('after a canary promoted and rolled back by name, a deploy then a plain rollback returns to the version live before that deploy', async () => {
    await deploy('0.1.0-stable');
    // remote-canary.spec: a canary, ended, started again, promoted, then rolled back by name.
    await recordDeploy('mail', '0.1.0-canary', routes, sealed('0.1.0-canary'));
    await startCanary('mail', { version: '0.1.0-canary', ...sealed('0.1.0-canary') }, 50, '0.1.0-stable');
    await endCanary('mail', '0.1.0-canary');
    await startCanary('mail', { version: '0.1.0-canary', ...sealed('0.1.0-canary') }, 50, '0.1.0-stable');
    await promoteCanary('mail', '0.1.0-canary');
    await rollback('0.1.0-stable');
    expect(await live()).toBe('0.1.0-stable');
    // deploy-rollback.spec: its own deploy, then a plain rollback.
    await deploy('0.1.0-v2');
    await rollback();
    // Was 0.1.0-canary: the version deployed before 0.1.0-v2 in the history, never live just before it.
    expect(await live()).toBe('0.1.0-stable');
  }, 30_000);

  it('a plain rollback after a plain rollback goes further back, never forward to the version it left', async () => {
    await deploy('0.2.0-a');
    await deploy('0.2.0-b');
    await deploy('0.2.0-c');
    await rollback();
    expect(await live()).toBe('0.2.0-b');
    await rollback();
    expect(await live()).toBe('0.2.0-a');
    // A rollback by name is a change like a deploy: a plain rollback then undoes it.
    await rollback('0.2.0-c');
    expect(await live()).toBe('0.2.0-c');
    await rollback();
    expect(await live()).toBe('0.2.0-a');
  }, 30_000);

  it('a redeploy of the live version is not a change: the rollback skips it', async () => {
    await deploy('0.3.0-a');
    await deploy('0.3.0-b');
    await deploy('0.3.0-b');
    await rollback();
    expect(await live()).toBe('0.3.0-a');
  }, 30_000);
});

describe('rollbackTarget', () => {
  const versions = ['a', 'b', 'c'].map((version) => ({ version, routes, deployedAt: '' }));
  it('a history written before liveBefore falls back to the previous deploy', () => {
    expect(rollbackTarget({ versions, current: 'c' })).toEqual({ version: 'b', liveBefore: [] });
    expect(rollbackTarget({ versions, current: 'a' })).toBeNull();
  });
  it('skips versions no longer in the history and the live one; nothing left: none', () => {
    expect(rollbackTarget({ versions, current: 'c', liveBefore: ['a', 'gone', 'c'] })).toEqual({
      version: 'a',
      liveBefore: [],
    });
    expect(rollbackTarget({ versions, current: 'c', liveBefore: [] })).toBeNull();
  });
});
