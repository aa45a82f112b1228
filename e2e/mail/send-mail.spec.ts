import { expect, test } from '../support/fixtures.ts';
import { signedInPage } from '../wallet/wallet-helpers.ts';

test('a user writes an e-mail, it is sent, and the records show it with its details', async ({ browser }) => {
  const { page, context, account } = await signedInPage(browser, 'mail');
  await page.goto('/mail');
  await page.getByText('发送邮件').click();
  await expect(page).toHaveURL(/\/sendemails$/);
  await expect(page.getByTestId('send-mail-form')).toContainText(account.email);

  await page
    .getByTestId('send-mail-to')
    .locator('input')
    .fill('a@example.com, b@example.com, c@example.com, d@example.com, e@example.com, f@example.com');
  await page.getByTestId('send-mail-subject').locator('input').fill('你好');
  await page.getByTestId('send-mail-body').locator('textarea').fill('第一行\n第二行');
  await page.getByTestId('send-mail-submit').click();
  await expect(page.getByTestId('send-mail-problem')).toHaveText('收件人最多 5 个');

  // Mail leaves from our own address: only to support and the user's own address (issue 38 item 6).
  await page.getByTestId('send-mail-to').locator('input').fill('friend@example.com; other@example.org');
  await page.getByTestId('send-mail-submit').click();
  await expect(page.getByTestId('send-mail-problem')).toHaveText('邮件只能发送给客服或您自己的邮箱');
  await expect(page).toHaveURL(/\/sendemails$/);

  await page.getByTestId('send-mail-to').locator('input').fill(`${account.email}; support@wallet.example`);
  await page.getByTestId('send-mail-submit').click();
  await expect(page).toHaveURL(/\/mailDetail\?id=/);
  const detail = page.getByTestId('mail-detail');
  await expect(detail).toHaveAttribute('data-state', 'sent');
  await expect(detail).toContainText(`${account.email}, support@wallet.example`);
  await expect(detail.locator('pre')).toHaveText('第一行\n第二行');

  await page.goto('/sendHistory');
  const row = page.getByTestId('mail-row').first();
  await expect(row).toContainText('你好');
  await expect(row.getByTestId('mail-state')).toHaveText('已发送');
  await context.close();
});
