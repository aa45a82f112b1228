import { expect, navigateInApp, test } from './support/fixtures.ts';

declare global {
  interface Window {
    __sameDocument?: boolean;
  }
}

test('switching to English changes host and remote text at once, and is remembered', async ({ page }) => {
  await page.goto('/settings');
  const tabbar = page.getByTestId('tabbar');
  const hub = page.getByTestId('settings-hub');
  await expect(hub).toContainText('设置');
  await expect(tabbar).toContainText('设置');
  await page.evaluate(() => {
    window.__sameDocument = true;
  });

  await page.getByTestId('settings-language').click();
  await page.getByTestId('language-option-en').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await navigateInApp(page, '/settings');
  await expect(tabbar).toContainText('Settings');
  await expect(tabbar).not.toContainText('设置');
  await expect(hub).toContainText('Settings');
  // No page load happened on the way.
  expect(await page.evaluate(() => window.__sameDocument)).toBe(true);

  await page.reload();
  await expect(page.getByTestId('tabbar')).toContainText('Settings');
  await expect(page.getByTestId('settings-hub')).toContainText('Settings');
});
