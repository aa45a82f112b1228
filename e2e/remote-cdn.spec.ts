import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { E2E_BROTLI_QUALITY, E2E_PORT, E2E_STATIC_DIR } from './support/e2e-env.ts';
import { expect, navigateInApp, REMOTE_LOAD_FAILED_ZH, test } from './support/fixtures.ts';
import { copyOfLive } from './support/remote-copies.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
/** The demo CDN the e2e server starts (REMOTE_CDN_DEMO=1): another loopback address, the app's port. */
const CDN = `http://127.0.0.2:${E2E_PORT}`;

async function script(name: 'deploy' | 'rollback', args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      DEPLOY_UNCHECKED_WITHOUT_MAPS: '1',
      DEPLOY_BROTLI_QUALITY: E2E_BROTLI_QUALITY,
      STATIC_DIR: E2E_STATIC_DIR,
      REMOTE_ORIGINS: CDN,
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

test('the wallet from a team CDN loads with integrity; one byte changed there and only its area fails (issue 35)', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000);
  const stored = await page.request.get('/remotes.json');
  const before = (await stored.json()).remotes.wallet.version as string;
  // The wallet the e2e server built (publicPath auto: its chunks load beside its entry, on the CDN too),
  // deployed to the CDN without another build: `deploy --from`.
  const copy = await copyOfLive('wallet');
  try {
    await script('deploy', ['wallet', '--from', copy.dir, '--origin', CDN]);
  } finally {
    await rm(copy.dir, { recursive: true, force: true });
  }
  try {
    const wallet = (await (await page.request.get('/remotes.json')).json()).remotes.wallet;
    expect(wallet.manifest).toMatch(new RegExp(`^${CDN}/wallet/`));
    expect(wallet.integrity).toMatch(/^sha384-/);

    // The CDN answers as a CDN: CORS for the app's origin, immutable, CORP cross-origin.
    const served = await page.request.get(wallet.entry, { headers: { origin: `http://127.0.0.1:${E2E_PORT}` } });
    expect(served.headers()['access-control-allow-origin']).toBe(`http://127.0.0.1:${E2E_PORT}`);
    expect(served.headers()['cache-control']).toContain('immutable');
    expect(served.headers()['cross-origin-resource-policy']).toBe('cross-origin');
    // The CSP lets scripts and fetches come from the registered CDN.
    const csp = (await page.request.get('/signIn', { headers: { accept: 'text/html' } })).headers()[
      'content-security-policy'
    ];
    expect(csp).toMatch(new RegExp(`script-src 'self' ${CDN}[;]`));
    expect(csp).toMatch(new RegExp(`connect-src 'self' ${CDN}[;]`));

    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('requestfailed', (r) => problems.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.url()} ${r.status()}`));
    await page.goto('/signIn');
    await navigateInApp(page, '/coinTopup');
    // The first load of the wallet's chunks from the CDN (about 4 MB, no cache): slow on a loaded machine.
    await expect(page.getByTestId('wallet-hub'), problems.join('\n')).toBeVisible({ timeout: 45_000 });

    // One byte changed on the CDN after the deploy sealed it.
    const file = path.join(E2E_STATIC_DIR, 'cdn', new URL(wallet.entry).pathname);
    const original = await readFile(file);
    const tampered = Buffer.from(original);
    tampered[tampered.indexOf('wallet')] = 'W'.charCodeAt(0);
    await writeFile(file, tampered);
    try {
      const fresh = await browser.newPage(); // its own context: nothing cached
      await fresh.goto(`http://127.0.0.1:${E2E_PORT}/signIn`);
      await navigateInApp(fresh, '/coinTopup');
      // A fresh context loads the host without cache first: as slow as the first load above.
      await expect(fresh.getByTestId('remote-load-failed')).toHaveText(REMOTE_LOAD_FAILED_ZH, { timeout: 45_000 });
      await navigateInApp(fresh, '/convert');
      await expect(fresh.getByTestId('convert-hub')).toBeVisible();
      await fresh.close();
    } finally {
      await writeFile(file, original);
    }
  } finally {
    // Back to the same-origin version the other specs expect (named: "the previous one" in the history
    // may be another run's CDN version).
    await script('rollback', ['wallet', before]);
  }
});
