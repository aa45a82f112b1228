import { expect, test } from '../support/fixtures.ts';
import { ensureOperator, OPERATOR, OPS_CONSOLE_URL, operatorCode } from './mail-helpers.ts';

const OPERATOR_NAME = 'e2e_ops_console';

test('@desktop the operator console: sign in, write in two languages, preview, publish, withdraw', async ({
  browser,
}) => {
  // The ops CLI runs under tsx (seconds when the machine is busy).
  test.slow();
  await ensureOperator(OPERATOR_NAME);
  const ops = await browser.newContext();
  const page = await ops.newPage();
  await page.goto(OPS_CONSOLE_URL);
  // A password alone (or a wrong one with a right code) does not open the console.
  const code = await operatorCode(page.request, OPERATOR_NAME);
  await page.getByTestId('ops-name').fill(OPERATOR_NAME);
  await page.getByTestId('ops-password').fill('wrong-Password-1');
  await page.getByTestId('ops-totp').fill(code);
  await page.getByTestId('ops-sign-in-submit').click();
  await expect(page.getByTestId('ops-sign-in')).toContainText('Wrong operator name, password or code');
  await page.getByTestId('ops-password').fill(OPERATOR.password);
  await page.getByTestId('ops-sign-in-submit').click();
  await expect(page.getByTestId('ops-roles')).toHaveText('(support)');

  const stamp = Date.now();
  await page.getByTestId('ops-category').selectOption('listing');
  await page.getByTestId('ops-title').fill(`新币上线 ${stamp}`);
  await page.getByTestId('ops-body').fill('**USDC** 充值开放\n\n<img src=x onerror="window.pwned=1">');
  await page.getByTestId('ops-preview').click();
  await expect(page.getByTestId('ops-preview-html').locator('strong')).toHaveText('USDC');
  expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
  await page.getByTestId('ops-lang-en').click();
  await page.getByTestId('ops-title').fill(`New listing ${stamp}`);
  await page.getByTestId('ops-body').fill('**USDC** deposits open');
  await page.getByTestId('ops-publish').click();
  const row = page.getByTestId('ops-announcements').locator('tr', { hasText: `新币上线 ${stamp}` });
  await expect(row).toContainText('en,zh-CN');

  // The user app shows it in English to an English reader.
  const reader = await browser.newContext();
  const app = await reader.newPage();
  await app.addInitScript(() => window.localStorage.setItem('lang', 'en'));
  await app.goto('/notice');
  await expect(app.getByTestId('announcement-row').filter({ hasText: `New listing ${stamp}` })).toBeVisible();

  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByTestId('ops-withdraw').click();
  await expect(row).toContainText('withdrawn');
  await app.reload();
  await expect(app.getByTestId('notice-screen')).toBeVisible();
  await expect(app.getByTestId('announcement-row').filter({ hasText: `New listing ${stamp}` })).toHaveCount(0);

  // A user's session is not an operator's.
  await page.getByTestId('ops-sign-out').click();
  await expect(page.getByTestId('ops-sign-in')).toBeVisible();
  await ops.close();
  await reader.close();
});
