import { useLanguage } from '../account/account-helpers.ts';
import { expect, test } from '../support/fixtures.ts';
import { signedInPage } from './wallet-helpers.ts';

/** The grey page reaches the bottom of the scroll area even when the content is short. */
async function expectPageFillsScrollArea(page: import('@playwright/test').Page) {
  await expect(page.locator('.cw-page')).toBeVisible();
  const sizes = await page.evaluate(() => ({
    scroll: document.querySelector('.app-scroll')?.clientHeight ?? 0,
    page: document.querySelector('.cw-page')?.getBoundingClientRect().height ?? 0,
  }));
  expect(sizes.scroll).toBeGreaterThan(300);
  expect(sizes.page).toBeGreaterThanOrEqual(sizes.scroll - 1);
}

test('a short wallet screen fills the phone screen', async ({ browser }) => {
  const { context, page } = await signedInPage(browser, 'fill');
  for (const path of ['/addressBook', '/coinTopup/verification/capitalPwd']) {
    await page.goto(path);
    await expectPageFillsScrollArea(page);
  }
  await context.close();
});

test('@desktop a short wallet screen fills the desktop frame', async ({ browser }) => {
  const { context, page } = await signedInPage(browser, 'filldesk');
  await page.goto('/addressBook');
  await expect(page.getByTestId('app-frame')).toHaveAttribute('data-framed', 'true');
  await expectPageFillsScrollArea(page);
  await context.close();
});

test('amounts use the Spanish decimal comma, typed and shown', async ({ browser }) => {
  const { context, page } = await signedInPage(browser, 'comma');
  // The browser's language before the first load: the account's first sync stores it (no extra load).
  await useLanguage(page, 'es');
  await page.goto('/coinTopup/send?coin=USDT&network=bsc');
  await expect(page.getByTestId('wallet-send')).toBeVisible();
  const amount = page.getByTestId('send-amount');
  await amount.fill('12,5');
  await expect(amount).toHaveValue('12,5');
  await expect(page.getByTestId('send-fee')).toHaveText('0,5 USDT');
  await expect(page.getByTestId('send-arrival')).toHaveText('12 USDT');
  // A keypad that offers only "." is read the same way.
  await amount.fill('7.25');
  await expect(amount).toHaveValue('7,25');
  await expect(page.getByTestId('send-arrival')).toHaveText('6,75 USDT');
  await context.close();
});
