import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { E2E_BROTLI_QUALITY, E2E_PORT, E2E_STATIC_DIR } from './support/e2e-env.ts';
import { expect, test } from './support/fixtures.ts';
import { copyOfLive, relabel } from './support/remote-copies.ts';
import { listeningProcess } from './support/server-process.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');

async function script(name: 'deploy' | 'rollback', args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      DEPLOY_UNCHECKED_WITHOUT_MAPS: '1',
      DEPLOY_BROTLI_QUALITY: E2E_BROTLI_QUALITY,
      STATIC_DIR: E2E_STATIC_DIR,
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

test('deploying a new mail build and rolling it back while the host keeps running', async ({ page }) => {
  test.setTimeout(300_000);
  const server = listeningProcess(E2E_PORT);
  expect(server, 'the e2e server process listening on the port').not.toBeNull();

  await page.goto('/mail');
  // Hidden on the hub (no version line on a user's screen), still in the page for this check.
  const buildId = page.getByTestId('mail-hub').getByTestId('build-id');
  await expect(buildId).toBeAttached();
  const before = (await buildId.textContent()) ?? '';
  expect(before).not.toContain('e2e-v2');

  // A new version without a build: a copy of the live one showing another build id (support/remote-copies.ts).
  const copy = await copyOfLive('mail');
  try {
    await relabel(copy.dir, before, 'e2e-v2');
    await script('deploy', ['mail', '--from', copy.dir]);
  } finally {
    await rm(copy.dir, { recursive: true, force: true });
  }
  await page.reload();
  await expect(buildId).toContainText('e2e-v2');

  await script('rollback', ['mail']);
  await page.reload();
  await expect(buildId).toHaveText(before);

  // The same server process (pid and start time) served all of it.
  expect(listeningProcess(E2E_PORT)).toEqual(server);
  const health = await page.request.get('/api/health');
  expect(health.ok()).toBe(true);
});
