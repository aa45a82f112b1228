import type { Page, Route } from '@playwright/test';
import { expect, navigateInApp, REMOTE_LOAD_FAILED_ZH, test } from './support/fixtures.ts';

const WALLET = '**/remotes/wallet/**';

type Target = 'manifest' | 'chunk';

/** Fail the wallet's manifest, or its scripts (remote entry and chunks), with a status. */
function failWallet(target: Target, status: number) {
  return async (route: Route) => {
    const url = route.request().url();
    const isManifest = url.endsWith('/mf-manifest.json');
    const hit = target === 'manifest' ? isManifest : !isManifest && /\.js(\?|$)/.test(url);
    if (hit) await route.fulfill({ status, contentType: 'text/plain', body: `e2e: ${status}` });
    else await route.continue();
  };
}

async function expectOtherScreensWork(page: Page) {
  await navigateInApp(page, '/convert');
  await expect(page.getByTestId('convert-hub')).toBeVisible();
  await navigateInApp(page, '/mail');
  await expect(page.getByTestId('mail-hub')).toBeVisible();
  await navigateInApp(page, '/signIn');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/注册/);
}

for (const target of ['manifest', 'chunk'] as const) {
  for (const status of [404, 500]) {
    test(`wallet ${target} answering ${status}: only the wallet area fails, and a click retries`, async ({ page }) => {
      await page.route(WALLET, failWallet(target, status));
      await page.goto('/signIn');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

      await navigateInApp(page, '/coinTopup');
      const failed = page.getByTestId('remote-load-failed');
      await expect(failed).toBeVisible();
      await expect(failed).toHaveText(REMOTE_LOAD_FAILED_ZH);
      await expect(page.getByTestId('wallet-hub')).toHaveCount(0);

      // The rest of the app keeps working in the same page session.
      await expectOtherScreensWork(page);

      // Back to the wallet: still failing while the server still fails it.
      await navigateInApp(page, '/coinTopup');
      await expect(page.getByTestId('remote-load-failed')).toBeVisible();

      await page.unroute(WALLET);
      await page.getByTestId('remote-load-failed').click();
      await expect(page.getByTestId('wallet-hub')).toBeVisible();
      await expect(page.getByTestId('remote-load-failed')).toHaveCount(0);
    });
  }
}
