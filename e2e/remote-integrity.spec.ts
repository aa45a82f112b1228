import type { Route } from '@playwright/test';
import { expect, navigateInApp, REMOTE_LOAD_FAILED_ZH, test } from './support/fixtures.ts';

const WALLET_ENTRY = '**/remotes/wallet/**/remoteEntry.js';

/** One byte of the wallet's entry changed in transit (as on a CDN after the deploy sealed it). */
async function tamper(route: Route) {
  const response = await route.fetch();
  const body = Buffer.from(await response.body());
  const at = body.indexOf('wallet');
  body[at] = 'W'.charCodeAt(0);
  // no-store: the browser must not keep the tampered bytes for the retry.
  const headers: Record<string, string> = { ...response.headers(), 'cache-control': 'no-store' };
  delete headers['content-encoding'];
  await route.fulfill({ response, body, headers });
}

/** The runtime removes its script element once loaded: note each remote entry script as it is added. */
function recordEntryScripts() {
  const seen: { src: string; integrity: string | null; crossorigin: string | null }[] = [];
  Object.assign(window, { __entryScripts: seen });
  new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes)
        if (node instanceof HTMLScriptElement && node.src.endsWith('/remoteEntry.js'))
          seen.push({
            src: node.src,
            integrity: node.getAttribute('integrity'),
            crossorigin: node.getAttribute('crossorigin'),
          });
  }).observe(document, { childList: true, subtree: true });
}

test.describe('remote integrity (issue 35 item 1)', () => {
  test('the wallet entry and manifest load with the digests the deploy took', async ({ page }) => {
    const registry = await (await page.request.get('/remotes.json')).json();
    const wallet = registry.remotes.wallet;
    expect(wallet.integrity).toMatch(/^sha384-/);
    expect(wallet.manifestIntegrity).toMatch(/^sha384-/);

    await page.addInitScript(recordEntryScripts);
    await page.goto('/signIn');
    await navigateInApp(page, '/coinTopup');
    await expect(page.getByTestId('wallet-hub')).toBeVisible();
    const scripts = await page.evaluate(() => (window as unknown as { __entryScripts: unknown[] }).__entryScripts);
    expect(scripts).toEqual([
      { src: new URL(wallet.entry, page.url()).href, integrity: wallet.integrity, crossorigin: 'anonymous' },
    ]);
  });

  test('one byte changed in the entry: it never runs, the area offers a retry, the rest works', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.route(WALLET_ENTRY, tamper);
    await page.goto('/signIn');
    await navigateInApp(page, '/coinTopup');
    const failed = page.getByTestId('remote-load-failed');
    await expect(failed).toHaveText(REMOTE_LOAD_FAILED_ZH);
    await expect(page.getByTestId('wallet-hub')).toHaveCount(0);
    // The browser refused the bytes (not a network failure): its integrity message.
    expect(errors.join('\n')).toMatch(/integrity/i);
    // Nothing of the tampered script ran: the remote's container global is absent.
    expect(await page.evaluate(() => 'wallet' in window)).toBe(false);

    await navigateInApp(page, '/convert');
    await expect(page.getByTestId('convert-hub')).toBeVisible();

    await page.unroute(WALLET_ENTRY);
    await navigateInApp(page, '/coinTopup');
    await page.getByTestId('remote-load-failed').click();
    await expect(page.getByTestId('wallet-hub')).toBeVisible();
  });
});
