import type { Route } from '@playwright/test';
import { expect, navigateInApp, REMOTE_LOAD_FAILED_ZH, test } from './support/fixtures.ts';

const WALLET_ENTRY = '**/remotes/wallet/**/remoteEntry.js';

/** One byte of the wallet's entry changed in transit (as on a CDN after the deploy sealed it). */
async function tamper(route: Route) {
  const response = await route.fetch();
  const body = Buffer.from(await response.body());
  const at = body.indexOf('wallet');
  body[at] = 'W'.charCodeAt(0);
  await route.fulfill({ response, body, headers: { ...response.headers(), 'content-encoding': 'identity' } });
}

test.describe('remote integrity (issue 35 item 1)', () => {
  test('the wallet entry and manifest load with the digests the deploy took', async ({ page }) => {
    const registry = await (await page.request.get('/remotes.json')).json();
    const wallet = registry.remotes.wallet;
    expect(wallet.integrity).toMatch(/^sha384-/);
    expect(wallet.manifestIntegrity).toMatch(/^sha384-/);

    await page.goto('/signIn');
    await navigateInApp(page, '/coinTopup');
    await expect(page.getByTestId('wallet-hub')).toBeVisible();
    const script = page.locator(`script[src$="${wallet.entry}"]`);
    await expect(script).toHaveAttribute('integrity', wallet.integrity);
    await expect(script).toHaveAttribute('crossorigin', 'anonymous');
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
