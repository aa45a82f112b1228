import { useLanguage } from './account/account-helpers.ts';
import { PHONE_DPR } from './support/e2e-env.ts';
import { expect, test } from './support/fixtures.ts';
import { setLanguage, signedInPage } from './wallet/wallet-helpers.ts';

// Labels must fit one line with a phone's glyph positioning.
test.use({ deviceScaleFactor: PHONE_DPR });

test('convert and exchange read and show amounts the Spanish way', async ({ browser }) => {
  const { context, page } = await signedInPage(browser, 'esamt');
  // The browser's language before the first load: the account's first sync stores it (no extra load).
  await useLanguage(page, 'es');

  await page.goto('/convert?from=USDT&to=BTC');
  const convertAmount = page.getByTestId('convert-amount');
  await convertAmount.fill('12,5');
  await expect(convertAmount).toHaveValue('12,5');
  // The amount parsed: its fiat line is shown, and the rate is written with the decimal comma.
  await expect(page.getByTestId('convert-from-fiat')).toBeVisible();
  await expect(page.getByTestId('convert-rate')).toHaveText(/^1 USDT ≈ 0,\d+ BTC$/);

  await page.goto('/exchange');
  const exchangeAmount = page.getByTestId('exchange-amount').locator('input');
  await exchangeAmount.fill('12,5');
  await expect(page.getByTestId('exchange-estimate')).toBeVisible();
  await expect(page.getByTestId('exchange-limits')).toContainText(',');
  await context.close();
});

test('the History links of convert and exchange look the same, and the English wallet hub labels fit one line', async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, 'nits');
  await page.goto('/exchange');
  const [color, background, weight] = await page
    .getByTestId('exchange-records')
    .evaluate((e) => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor, getComputedStyle(e).fontWeight]);
  await page.goto('/convert');
  // toHaveCSS retries: the screen may re-render its header while settings and shared modules arrive.
  const convertLink = page.getByTestId('convert-history-link');
  await expect(convertLink).toHaveCSS('color', color ?? '');
  await expect(convertLink).toHaveCSS('background-color', background ?? '');
  await expect(convertLink).toHaveCSS('font-weight', weight ?? '');

  await setLanguage(page, 'en');
  await page.goto('/coinTopup');
  const label = page.getByTestId('hub-address-book').locator('span').last();
  await expect(label).toHaveText('Address book');
  const lines = await label.evaluate((e) => e.getClientRects().length);
  expect(lines).toBe(1);
  await context.close();
});
