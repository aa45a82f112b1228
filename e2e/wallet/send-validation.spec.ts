import { useLanguage } from '../account/account-helpers.ts';
import { E2E_DEV_URL } from '../support/e2e-env.ts';
import { expect, test } from '../support/fixtures.ts';
import { BAD_CHECKSUM_ADDRESS, GOOD_ETH_ADDRESS, pickDate, signedInPage } from './wallet-helpers.ts';

const CASES = [
  {
    language: 'zh-CN',
    address: '地址无效或与网络不匹配',
    available: '超出最大可用数量',
    below: '低于最小限额',
    above: '超出最大限额',
  },
  {
    language: 'en',
    address: 'Address invalid or mismatched with the network',
    available: 'Exceeds the maximum available',
    below: 'Below minimum limit',
    above: 'Exceeds maximum limit',
  },
] as const;

for (const expected of CASES) {
  test(`send form (${expected.language}): bad address and amounts outside the limits or over the balance give translated errors`, async ({
    browser,
  }) => {
    const { context, page } = await signedInPage(browser, 'sendv');
    // The browser's language before the first load: the account's first sync stores it (no extra load).
    await useLanguage(page, expected.language);
    await page.goto('/coinTopup/send?coin=USDT&network=ethereum');
    await expect(page.getByTestId('wallet-send')).toBeVisible();

    const address = page.getByTestId('send-address').locator('textarea');
    await address.fill(BAD_CHECKSUM_ADDRESS);
    await address.blur();
    await expect(page.getByTestId('send-address-error')).toHaveText(expected.address);
    await address.fill(GOOD_ETH_ADDRESS);
    await expect(page.getByTestId('send-address-error')).toHaveCount(0);

    // The fresh account holds nothing: 100 USDT is within the limits but over the balance.
    const amount = page.getByTestId('send-amount');
    await amount.fill('100');
    await expect(page.getByTestId('send-amount-error')).toHaveText(expected.available);
    await amount.fill('1');
    await expect(page.getByTestId('send-amount-error')).toHaveText(expected.below);
    await amount.fill('2000000');
    await expect(page.getByTestId('send-amount-error')).toHaveText(expected.above);

    // Fee and arrival follow the amount.
    await amount.fill('100');
    await expect(page.getByTestId('send-fee')).toHaveText('5 USDT');
    await expect(page.getByTestId('send-arrival')).toHaveText('95 USDT');

    // Nothing goes further while an error stands.
    await page.getByTestId('send-next').click({ force: true });
    await expect(page).toHaveURL(/\/coinTopup\/send\?/);

    // The server refuses the same order with the same code.
    const refused = await page.request.post('/api/wallet/withdrawals', {
      data: {
        coin: 'USDT',
        network: 'ethereum',
        address: BAD_CHECKSUM_ADDRESS,
        amountMinor: '100000000',
        idempotencyKey: `e2e-${Date.now()}`,
        emailCode: '000000',
      },
    });
    expect(refused.ok()).toBe(false);
    await context.close();
  });
}

test('history: a start date after the end date gives the translated error', async ({ browser }) => {
  const { context, page } = await signedInPage(browser, 'hist');
  await page.goto('/coinTopup/history');
  await expect(page.getByTestId('wallet-history')).toBeVisible();
  await expect(page.getByTestId('state-empty')).toBeVisible();
  // Dates in the UI language, picked on antd-mobile's wheels (never the browser's mm/dd/yyyy).
  await pickDate(page, 'history-from', '2026-03-02');
  await expect(page.getByTestId('history-from')).toHaveText('2026年3月2日');
  await pickDate(page, 'history-to', '2026-03-01');
  await expect(page.getByTestId('history-date-error')).toHaveText('开始日期不能晚于结束日期');
  await pickDate(page, 'history-to', '2026-03-03');
  await expect(page.getByTestId('history-date-error')).toHaveCount(0);
  await context.close();
});

test('transfer: an unknown or own recipient is refused as it is typed, before any code is e-mailed', async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, 'xfer');
  const me = (await (await page.request.get('/api/me')).json()) as { email: string };
  await page.goto('/coinTopup/send?mode=send&coin=USDT');
  const recipient = page.getByTestId('send-address').locator('textarea');
  await recipient.fill('nobody-here@example.com');
  await expect(page.getByTestId('send-address-error')).toBeVisible();
  await expect(page.getByTestId('send-next')).toBeDisabled();
  await recipient.fill(me.email);
  await expect(page.getByTestId('send-address-error')).toBeVisible();
  const mailbox = (await (await page.request.get(`${E2E_DEV_URL}/dev/mailbox.json`)).json()) as {
    messages: { to: string; text: string }[];
  };
  expect(mailbox.messages.filter((m) => m.to === me.email && m.text.includes('转账'))).toHaveLength(0);
  await context.close();
});
