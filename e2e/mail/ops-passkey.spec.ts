import { virtualAuthenticator } from '../account/passkey-helpers.ts';
import { expect, test } from '../support/fixtures.ts';
import { OPERATOR, OPS_CONSOLE_URL, opsCommand, serverNow, tokenOf, totpOf } from './mail-helpers.ts';

/**
 * Issue 32: an operator enrols from the CLI's link, adds a passkey on "My account" right away (the
 * session is minutes old: no second code), signs out, and signs in with the passkey alone (a CDP
 * virtual authenticator; the console's origin is localhost, its RP ID).
 */
test('@desktop an operator adds a passkey after enrolling and signs in with it alone', async ({ browser }) => {
  test.slow();
  const name = `e2e_pk_${String(Date.now()).slice(-8)}`;
  const link = await opsCommand(['operators', 'add', name, '--roles', 'finance']);
  const context = await browser.newContext();
  const page = await context.newPage();
  await virtualAuthenticator(context, page);
  await page.goto(`${OPS_CONSOLE_URL}#enrol=${tokenOf(link)}`);
  const secret = (await page.getByTestId('ops-enrol-secret').textContent()) ?? '';
  await page.getByTestId('ops-enrol-password').fill(OPERATOR.password);
  await page.getByTestId('ops-enrol-code').fill(totpOf(secret).generate({ timestamp: await serverNow(page.request) }));
  await page.getByTestId('ops-enrol-submit').click();
  await expect(page.getByTestId('ops-roles')).toHaveText('(finance)');

  await page.getByTestId('ops-tab-me').click();
  await page.getByTestId('ops-passkey-name').fill('Virtual key');
  await page.getByTestId('ops-passkey-add').click();
  await expect(page.getByTestId('ops-passkey-notice')).toContainText('Virtual key');
  await expect(page.getByTestId('ops-passkeys').locator('tr[data-passkey="Virtual key"]')).toBeVisible();

  await page.getByTestId('ops-sign-out').click();
  await expect(page.getByTestId('ops-sign-in')).toBeVisible();
  await page.getByTestId('ops-passkey-sign-in').click();
  await expect(page.getByTestId('ops-roles')).toHaveText('(finance)');
  await expect(page.getByTestId('ops-tab-dashboard')).toBeVisible();
  await context.close();
});
