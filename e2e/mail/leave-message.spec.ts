import { expect, test } from '../support/fixtures.ts';
import { ensureOperator, OPS_CONSOLE_URL, signInOperatorPage } from './mail-helpers.ts';

/** This spec's own operator: a code works once per operator and 30 s step. */
const OPERATOR_NAME = 'e2e_ops_leave';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAE0lEQVQImWP4z8DwnwGM/zMwAAAf7gP9qS/A4gAAAABJRU5ErkJggg==',
  'base64',
);

test('@desktop a visitor leaves a message with a phone and its area code; an operator answers it in the console', async ({
  browser,
}) => {
  const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await visitor.newPage();
  await page.addInitScript(() => window.localStorage.setItem('lang', 'en'));
  await page.goto('/support');
  const stamp = Date.now();
  await page.getByTestId('leave-content').locator('textarea').fill(`My deposit is late ${stamp}`);
  await page.getByTestId('leave-submit').click();
  await expect(page.getByTestId('leave-problem')).toHaveText('Enter a phone number or an email address');
  await page.getByTestId('leave-phone').locator('input').fill('0612345678');
  await page.getByTestId('leave-submit').click();
  await expect(page.getByTestId('leave-problem')).toHaveText('Choose the area code');
  await page.getByTestId('area-code').click();
  await page.getByTestId('area-search').locator('input').fill('+33');
  await page.getByTestId('area-option-FR').click();
  await expect(page.getByTestId('area-code')).toHaveText('FR +33');
  await page.getByTestId('leave-phone').locator('input').fill('12');
  await page.getByTestId('leave-submit').click();
  await expect(page.getByTestId('leave-problem')).toHaveText('This phone number is not valid for the chosen area');
  await page.getByTestId('leave-phone').locator('input').fill('06 12 34 56 78');
  // A visitor's picture: uploaded at once, owned through the visitor's own cookie.
  await page
    .getByTestId('leave-pictures')
    .locator('input[type=file]')
    .setInputFiles({ name: 'screen.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByTestId('leave-pictures').getByTestId('upload-item')).toHaveAttribute('data-status', 'done');
  await page.getByTestId('leave-submit').click();
  await expect(page.getByTestId('leave-content').locator('textarea')).toHaveValue('');
  await visitor.close();

  await ensureOperator(OPERATOR_NAME);
  const ops = await browser.newContext();
  const console = await ops.newPage();
  await console.goto(OPS_CONSOLE_URL);
  await signInOperatorPage(console, OPERATOR_NAME);
  const message = console.getByTestId('ops-messages').locator('article', { hasText: `My deposit is late ${stamp}` });
  await expect(message).toContainText('+33612345678');
  await expect(message.getByTestId('ops-message-picture')).toHaveCount(1);
  await message.getByTestId('ops-answer').fill('We called you back.');
  await message.getByTestId('ops-answer-file').setInputFiles({ name: 'steps.png', mimeType: 'image/png', buffer: PNG });
  await expect(message.getByTestId('ops-answer-attached')).toHaveText('steps.png');
  await message.getByTestId('ops-answer-send').click();
  await expect(message).toHaveCount(0);
  await ops.close();
});
