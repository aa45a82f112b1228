import type { Page } from '@playwright/test';
import { E2E_DEV_URL } from '../support/e2e-env.ts';
import { expect, test } from '../support/fixtures.ts';
import { signedInPage } from '../wallet/wallet-helpers.ts';
import { ensureOperator, OPS_CONSOLE_URL, signInOperatorPage } from './mail-helpers.ts';

/** This spec's own operator: a code works once per operator and 30 s step. */
const OPERATOR_NAME = 'e2e_ops_tickets';

/** A 2x2 PNG in two colours, small enough to inline. */
const PNG_RED = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAE0lEQVQImWP4z8DwnwGM/zMwAAAf7gP9qS/A4gAAAABJRU5ErkJggg==',
  'base64',
);
const PNG_BLUE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAD0lEQVQImWNgYPgPRmAKABf2A/38FIMyAAAAAElFTkSuQmCC',
  'base64',
);
/** Every way an SVG can run script, each trying to mark the page that shows it. */
const HOSTILE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40" onload="top.__svgRan='onload'">
<script>top.__svgRan='script'</script>
<a xlink:href="javascript:top.__svgRan='link'"><rect width="40" height="40" fill="green"/></a>
<foreignObject width="40" height="40"><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:top.__svgRan='foreign'"></iframe></foreignObject>
</svg>`;

async function attach(page: Page, testId: string, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await page.getByTestId(testId).locator('input[type=file]').setInputFiles(files);
  await expect(page.getByTestId(testId).getByTestId('upload-item')).toHaveCount(files.length);
  for (const item of await page.getByTestId(testId).getByTestId('upload-item').all())
    await expect(item).toHaveAttribute('data-status', 'done');
}

test('@desktop a ticket with two pictures; the operator answers in the console; the user sees the reply, the notice and the e-mail', async ({
  browser,
}) => {
  const { page, context, account } = await signedInPage(browser, 'ticket');
  await page.goto('/mail');
  await page.getByText('客服邮箱').click();
  await expect(page).toHaveURL(/\/supportMail$/);
  await page.getByTestId('ticket-new').click();
  await expect(page.getByTestId('ticket-email').locator('input')).toHaveValue(account.email);
  await page.getByTestId('ticket-submit').click();
  await expect(page.getByTestId('ticket-problem')).toHaveText('请填写问题描述');
  const stamp = Date.now();
  await page.getByTestId('ticket-description').locator('textarea').fill(`充值未到账 ${stamp}`);
  await page.getByTestId('ticket-tx').locator('input').fill('0xnot-mine');
  await attach(page, 'ticket-pictures', [
    { name: 'one.png', mimeType: 'image/png', buffer: PNG_RED },
    { name: 'two.png', mimeType: 'image/png', buffer: PNG_BLUE },
  ]);
  await page.getByTestId('ticket-submit').click();
  await expect(page.getByTestId('ticket-problem')).toHaveText('请检查输入内容');
  await page.getByTestId('ticket-tx').locator('input').fill('');
  await page.getByTestId('ticket-submit').click();
  await expect(page).toHaveURL(/\/supportMail\/detail\?id=/);
  await expect(page.getByTestId('ticket-state')).toHaveText('待回复');
  await expect(page.getByTestId('ticket-message').first().getByTestId('previewable-image')).toHaveCount(2);

  await ensureOperator(OPERATOR_NAME);
  const ops = await browser.newContext();
  const console = await ops.newPage();
  await console.goto(OPS_CONSOLE_URL);
  await signInOperatorPage(console, OPERATOR_NAME);
  await console.getByTestId('ops-tickets').getByText(`充值未到账 ${stamp}`).click();
  const thread = console.getByTestId('ops-ticket');
  await expect(thread.getByTestId('ops-ticket-picture')).toHaveCount(2);
  await thread
    .getByTestId('ops-ticket-file')
    .setInputFiles({ name: 'answer.png', mimeType: 'image/png', buffer: PNG_BLUE });
  await expect(thread.getByTestId('ops-ticket-attached')).toHaveText('answer.png');
  await thread.getByTestId('ops-ticket-reply').fill('已到账，请查看截图。');
  await thread.getByTestId('ops-ticket-send').click();
  await expect(console.getByTestId('ops-tickets').getByText(`充值未到账 ${stamp}`)).toHaveCount(0);
  await ops.close();

  await page.reload();
  await expect(page.getByTestId('ticket-state')).toHaveText('已回复');
  const answer = page.locator('[data-testid=ticket-message][data-author=operator]');
  await expect(answer).toContainText('已到账，请查看截图。');
  await expect(answer.getByTestId('previewable-image')).toHaveCount(1);
  await expect
    .poll(() => answer.getByTestId('previewable-image').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  const mailbox = await context.request.get(`${E2E_DEV_URL}/dev/mailbox.json`);
  const { messages } = (await mailbox.json()) as { messages: { to: string; text: string }[] };
  expect(messages.some((m) => m.to === account.email && m.text.includes('已到账，请查看截图。'))).toBe(true);
  await page.goto('/notice');
  await page.getByTestId('notice-tab-system').click();
  await page.getByText('客服已回复').first().click();
  await expect(page).toHaveURL(/\/supportMail\/detail\?id=/);

  // Follow-up: pending again.
  await page.getByTestId('ticket-follow-up-text').locator('textarea').fill('谢谢');
  await page.getByTestId('ticket-follow-up-send').click();
  await expect(page.getByTestId('ticket-state')).toHaveText('待回复');
  await context.close();
});

test('a script-bearing SVG never runs: it shows as a PNG drawing, and its kept original only downloads', async ({
  browser,
}) => {
  const { page, context } = await signedInPage(browser, 'svg');
  await page.goto('/supportMail/new');
  await page.getByTestId('ticket-description').locator('textarea').fill('an svg');
  await attach(page, 'ticket-pictures', [
    { name: 'diagram.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(HOSTILE_SVG) },
  ]);
  await page.getByTestId('ticket-submit').click();
  const image = page.getByTestId('ticket-message').getByTestId('previewable-image');
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);
  const src = await image.getAttribute('src');
  // Try to make the browser render the kept original in the page: as a frame, an object and an image.
  await page.evaluate((url) => {
    for (const tag of ['iframe', 'object', 'embed', 'img'] as const) {
      const el = document.createElement(tag);
      if (tag === 'object') (el as HTMLObjectElement).data = url;
      else (el as HTMLIFrameElement).src = url;
      document.body.append(el);
    }
  }, `${src}?variant=original`);
  await page.waitForTimeout(1500);
  expect(await page.evaluate(() => (window as unknown as { __svgRan?: string }).__svgRan)).toBeUndefined();
  const original = await context.request.get(`${src}?variant=original`);
  expect(original.headers()['content-disposition']).toMatch(/^attachment/);
  expect(original.headers()['content-security-policy']).toBe("default-src 'none'; sandbox");
  const kept = await original.text();
  for (const bad of ['script', 'onload', 'javascript:', 'foreignObject']) expect(kept).not.toContain(bad);
  await context.close();
});
