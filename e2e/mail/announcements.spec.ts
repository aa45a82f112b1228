import { request as apiRequest } from '@playwright/test';
import { E2E_OPS_URL } from '../support/e2e-env.ts';
import { expect, test } from '../support/fixtures.ts';
import { signedInPage } from '../wallet/wallet-helpers.ts';
import { ensureOperator, operatorSignIn } from './mail-helpers.ts';

const TITLES = {
  'zh-CN': '钱包维护通知',
  'zh-TW': '錢包維護通知',
  en: 'Wallet maintenance',
  es: 'Mantenimiento de la billetera',
} as const;

test('an announcement published by an operator appears in all four languages, unread until opened', async ({
  browser,
}) => {
  await ensureOperator('e2e_ops_announce');
  // The operator API answers on the console's own origin only (issue 38 item 5).
  const ops = await apiRequest.newContext({ baseURL: E2E_OPS_URL });
  await operatorSignIn(ops, 'e2e_ops_announce');
  const stamp = Date.now();
  const texts = Object.fromEntries(
    Object.entries(TITLES).map(([lang, title]) => [
      lang,
      {
        title: `${title} ${stamp}`,
        bodyMd: `**${title}**\n\n[help](https://example.com/help)\n\n<script>window.hacked=1</script>`,
      },
    ]),
  );
  const published = await ops.post('/api/ops/announcements', {
    data: { category: 'maintenance', pinned: true, texts },
  });
  expect(published.status(), await published.text()).toBe(201);
  const { id } = (await published.json()) as { id: string };

  for (const lang of Object.keys(TITLES) as Array<keyof typeof TITLES>) {
    const context = await browser.newContext();
    const page = await context.newPage();
    // The app language, chosen before any script runs (as useLanguage in account-helpers does).
    await page.addInitScript((l) => window.localStorage.setItem('lang', l), lang);
    await page.goto('/notice');
    const row = page.locator(`[data-testid="announcement-row"][data-id="${id}"]`);
    await expect(row).toContainText(`${TITLES[lang]} ${stamp}`);
    await row.click();
    await expect(page.getByTestId('notice-detail-title')).toHaveText(`${TITLES[lang]} ${stamp}`);
    const body = page.getByTestId('notice-detail-body');
    await expect(body.locator('strong')).toHaveText(TITLES[lang]);
    await expect(body.locator('a')).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    await expect(body).toContainText('<script>'); // shown as text, never run
    expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();
    await context.close();
  }

  // A signed-in user: the mail tab's badge counts it, opening it clears the dot and the badge follows.
  const { page, context } = await signedInPage(browser, 'notice');
  await page.goto('/mail');
  await expect(page.getByTestId('tab-mail').locator('.adm-badge')).toBeVisible();
  await page.goto('/notice');
  const row = page.locator(`[data-testid="announcement-row"][data-id="${id}"]`);
  await expect(row).toHaveAttribute('data-unread', 'true');
  await row.click();
  await expect(page.getByTestId('notice-detail-title')).toContainText(String(stamp));
  await page.goBack();
  await expect(row).toHaveAttribute('data-unread', 'false');
  await context.close();

  expect((await ops.post(`/api/ops/announcements/${id}/withdraw`)).status()).toBe(204);
  await ops.dispose();
});
