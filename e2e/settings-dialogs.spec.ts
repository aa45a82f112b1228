import { expect, test } from './support/fixtures.ts';

test.describe('settings dialogs and toasts', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/settings');
    await expect(page.getByTestId('settings-hub')).toBeVisible();
  });

  test('reset: cancel changes nothing, the backdrop closes, confirm shows a success toast', async ({ page }) => {
    const priceMode = page.getByTestId('settings-price-mode');
    const before = await priceMode.textContent();

    await page.getByTestId('settings-reset').click();
    await expect(page.getByTestId('dialog-confirm')).toBeVisible();
    await page.getByTestId('dialog-cancel').click();
    await expect(page.getByTestId('dialog-backdrop')).toHaveCount(0);
    await page.waitForTimeout(400);
    await expect(page.locator('[data-testid=toast-item][data-type=success]')).toHaveCount(0);
    await expect(priceMode).toHaveText(before ?? '');

    await page.getByTestId('settings-reset').click();
    await expect(page.getByTestId('dialog-backdrop')).toBeVisible();
    await page.getByTestId('dialog-backdrop').click({ position: { x: 5, y: 5 } });
    await expect(page.getByTestId('dialog-backdrop')).toHaveCount(0);

    await page.getByTestId('settings-reset').click();
    await page.getByTestId('dialog-confirm').click();
    await expect(page.getByTestId('dialog-backdrop')).toHaveCount(0);
    await expect(page.locator('[data-testid=toast-item][data-type=success]')).toBeVisible();
  });

  test('quick buy amount: the input dialog resolves with the typed value, shown in the row', async ({ page }) => {
    await page.getByTestId('settings-quick-buy').click();
    const input = page.getByTestId('dialog-input');
    await expect(input).toBeVisible();
    await input.fill('321');
    await page.getByTestId('dialog-confirm').click();
    await expect(page.getByTestId('dialog-backdrop')).toHaveCount(0);
    await expect(page.getByTestId('settings-quick-buy')).toContainText('321');
  });

  test('copy build id: the clipboard gets it and a "copied successfully" toast shows', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByTestId('copy-build').click();
    // shared-ui's copyText shows the translated message as a text toast.
    await expect(page.locator('[data-testid=toast-item][data-state=visible]')).toHaveText('复制成功');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.length).toBeGreaterThan(0);
    await expect(page.getByTestId('settings-hub').getByTestId('build-id')).toContainText(copied);
  });
});
