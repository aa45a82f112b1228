import { createHash } from 'node:crypto';
import type { Page, Route } from '@playwright/test';
import { lockedVersions } from '../federation-shared.ts';
import { expect, navigateInApp, REMOTE_LOAD_FAILED_ZH, test } from './support/fixtures.ts';

declare global {
  interface Window {
    __reactRenderers?: number;
  }
}

/**
 * Issue 35: a shared-version skew that slipped past the deploy (the registry edited by hand to point at
 * a remote built against a newer React) fails in the wallet's area only: its translated retry state,
 * never a blank page and never a second React.
 *
 * The skewed build is the deployed wallet's entry with its shared React declared as a build against the
 * next minor would declare it (`version` 19.4.0, `requiredVersion` ^19.4.0, still strict): the share
 * negotiation sees exactly what such a build carries. The "hand-edited registry" points at it with a
 * matching digest, so integrity passes and the failure is the skew alone.
 */
const [major, minor] = (lockedVersions().react as string).split('.');
const HOST_RANGE = `requiredVersion:"^${major}.${minor}.0"`;
const SKEWED_RANGE = `requiredVersion:"^${major}.${Number(minor) + 1}.0"`;
const HOST_VERSION = `version:"${lockedVersions().react}"`;
const SKEWED_VERSION = `version:"${major}.${Number(minor) + 1}.0"`;

/**
 * Serves /remotes.json with the wallet pointing at the skewed entry (its digest recomputed), and that
 * entry. Returns the wallet's own React files (its shared fallbacks), which must never be fetched.
 */
async function pointWalletAtSkewedBuild(page: Page): Promise<Set<string>> {
  const skewed = new Map<string, Buffer>();
  const reactFallbacks = new Set<string>();
  await page.route('**/remotes.json', async (route: Route) => {
    const response = await route.fetch();
    const registry = (await response.json()) as { remotes: Record<string, { entry?: string; integrity?: string }> };
    const wallet = registry.remotes.wallet as { entry?: string; integrity?: string; manifest: string };
    if (!wallet?.entry) throw new Error('the registry names no wallet entry');
    const manifestUrl = new URL(wallet.manifest, route.request().url()).href;
    const manifest = (await (await page.request.get(manifestUrl)).json()) as {
      shared: { name: string; assets: { js: { sync: string[]; async: string[] } } }[];
    };
    for (const shared of manifest.shared.filter((s) => /^react(-dom)?(\/|$)/.test(s.name))) {
      for (const file of [...shared.assets.js.sync, ...shared.assets.js.async])
        reactFallbacks.add(new URL(file, manifestUrl).href);
    }
    const entryUrl = new URL(wallet.entry, route.request().url()).href;
    const original = (await (await page.request.get(entryUrl)).body()).toString('utf8');
    const body = original.replaceAll(HOST_RANGE, SKEWED_RANGE).replaceAll(HOST_VERSION, SKEWED_VERSION);
    expect(body, 'the entry declares its shared React').not.toBe(original);
    skewed.set(entryUrl, Buffer.from(body));
    wallet.integrity = `sha384-${createHash('sha384').update(body).digest('base64')}`;
    await route.fulfill({ json: registry, headers: { 'cache-control': 'no-store' } });
  });
  await page.route('**/remotes/wallet/**/remoteEntry.js', async (route: Route) => {
    const body = skewed.get(route.request().url());
    if (!body) return route.continue();
    await route.fulfill({ body, contentType: 'application/javascript', headers: { 'cache-control': 'no-store' } });
  });
  return reactFallbacks;
}

/** A stand-in for React DevTools: every React DOM copy that starts registers itself. */
function countReactRenderers() {
  window.__reactRenderers = 0;
  let nextId = 0;
  Object.defineProperty(window, '__REACT_DEVTOOLS_GLOBAL_HOOK__', {
    configurable: true,
    value: {
      renderers: new Map(),
      supportsFiber: true,
      isDisabled: false,
      inject(renderer: unknown) {
        window.__reactRenderers = (window.__reactRenderers ?? 0) + 1;
        nextId += 1;
        this.renderers.set(nextId, renderer);
        return nextId;
      },
      checkDCE() {},
      onScheduleFiberRoot() {},
      onCommitFiberRoot() {},
      onCommitFiberUnmount() {},
      onPostCommitFiberRoot() {},
    },
  });
}

test('a remote built against a newer React, registered by hand: its area fails alone, one React', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  test.setTimeout(120_000);
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  await page.addInitScript(countReactRenderers);
  const reactFallbacks = await pointWalletAtSkewedBuild(page);
  await page.goto('/signIn');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  await navigateInApp(page, '/coinTopup');
  // The machine may be loaded: the wallet's manifest, entry and chunks take their time.
  await expect(page.getByTestId('remote-load-failed')).toHaveText(REMOTE_LOAD_FAILED_ZH, { timeout: 45_000 });
  await expect(page.getByTestId('wallet-hub')).toHaveCount(0);
  // Refused by the share negotiation (strictVersion: an error instead of the runtime's warning and
  // the remote's own copy), not by integrity: the wallet's own React files were never fetched.
  expect(errors.join('\n')).not.toMatch(/integrity/i);
  expect(reactFallbacks.size).toBeGreaterThan(0);
  expect(requested.filter((url) => reactFallbacks.has(url))).toEqual([]);

  // Not a blank page: the frame is there and the other areas work.
  await navigateInApp(page, '/convert');
  await expect(page.getByTestId('convert-hub')).toBeVisible();
  await navigateInApp(page, '/signIn');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => window.__reactRenderers)).toBe(1);
});
