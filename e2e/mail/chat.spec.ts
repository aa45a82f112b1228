import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { signedInPage } from '../wallet/wallet-helpers.ts';
import { ensureOperator, OPS_CONSOLE_URL, signInOperatorPage } from './mail-helpers.ts';

/** This spec's own operator: a code works once per operator and 30 s step. */
const OPERATOR_NAME = 'e2e_ops_chat';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

async function operatorConsole(browser: import('@playwright/test').Browser): Promise<Page> {
  await ensureOperator(OPERATOR_NAME);
  const ops = await browser.newContext();
  const page = await ops.newPage();
  await page.goto(OPS_CONSOLE_URL);
  await signInOperatorPage(page, OPERATOR_NAME);
  await expect(page.getByTestId('ops-chats')).toBeVisible();
  return page;
}

test('@desktop live chat: both sides see messages and typing, a dropped connection loses and repeats nothing, files go both ways', async ({
  browser,
}) => {
  const { page, context, account } = await signedInPage(browser, 'chat');
  const console = await operatorConsole(browser);
  await page.goto('/mail');
  await page.getByText('在线客服').click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByTestId('chat-screen')).toHaveAttribute('data-connection', 'open');

  await page.getByTestId('chat-input').fill('你好，我的充值还没到账');
  await page.getByTestId('chat-send').click();
  await expect(page.locator('[data-testid=chat-message][data-author=user]')).toContainText('你好，我的充值还没到账');

  // The console lists the chat as it arrives (over the operators' stream) and opens it.
  await console.getByTestId('ops-chats').getByText(account.username).click();
  const panel = console.getByTestId('ops-chat');
  await expect(panel.getByTestId('ops-chat-message')).toContainText('你好，我的充值还没到账');
  await expect(page.locator('[data-testid=chat-message][data-author=user]').getByText('已读')).toBeVisible();

  // Typing, both ways.
  await panel.getByTestId('ops-chat-input').fill('请');
  await expect(page.getByTestId('chat-typing')).toHaveText('客服正在输入…');
  await page.getByTestId('chat-input').fill('好');
  await expect(panel.getByTestId('ops-chat-typing')).toBeVisible();
  await panel.getByTestId('ops-chat-input').fill('请稍等，正在查询');
  await panel.getByTestId('ops-chat-send').click();
  await expect(page.locator('[data-testid=chat-message][data-author=operator]')).toHaveText(/请稍等，正在查询/);

  // The user's connection drops mid-conversation; support writes twice; the user comes back.
  await context.setOffline(true);
  await expect(page.getByTestId('chat-screen')).toHaveAttribute('data-connection', 'reconnecting');
  for (const text of ['已找到您的充值', '预计十分钟内到账']) {
    await panel.getByTestId('ops-chat-input').fill(text);
    await panel.getByTestId('ops-chat-send').click();
    await expect(panel.getByTestId('ops-chat-message').filter({ hasText: text })).toHaveCount(1);
  }
  await context.setOffline(false);
  await expect(page.getByTestId('chat-screen')).toHaveAttribute('data-connection', 'open', { timeout: 20_000 });
  const fromSupport = page.locator('[data-testid=chat-message][data-author=operator]');
  await expect(fromSupport).toHaveCount(3);
  await page.waitForTimeout(1000);
  await expect(fromSupport).toHaveCount(3);
  await expect(fromSupport.filter({ hasText: '已找到您的充值' })).toHaveCount(1);
  await expect(fromSupport.filter({ hasText: '预计十分钟内到账' })).toHaveCount(1);

  // Files: the user sends a statement, support answers with one.
  await page
    .getByTestId('chat-file-input')
    .setInputFiles({ name: 'statement.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(page.locator('[data-testid=chat-message][data-author=user]').getByTestId('chat-file')).toHaveText(
    /statement\.pdf/,
  );
  await expect(panel.getByTestId('ops-chat-file')).toHaveText('statement.pdf');
  await panel
    .getByTestId('ops-chat-file-input')
    .setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(fromSupport.getByTestId('chat-file')).toHaveText(/receipt\.pdf/);
  await console.context().close();
  await context.close();
});
