import { expect, test } from '../support/fixtures.ts';
import { OPERATOR, OPS_CONSOLE_URL, opsCommand, serverNow, tokenOf, totpOf } from './mail-helpers.ts';

/**
 * Issue 32: an admin enrols through the CLI's one-time link in the browser (authenticator app, then
 * password), sees only the pages of their roles, adds an operator (the page shows the new link), and
 * the Audit page shows the hash chain intact and finds the addition by actor.
 */
test('@desktop an admin enrols from the link, adds an operator, and reads the audit log', async ({ browser }) => {
  // The ops CLI runs under tsx (seconds when the machine is busy) and enrolment waits for a fresh code step.
  test.slow();
  const stamp = String(Date.now()).slice(-8);
  const admin = `e2e_admin_${stamp}`;
  const link = await opsCommand(['operators', 'add', admin, '--roles', 'admin']);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${OPS_CONSOLE_URL}#enrol=${tokenOf(link)}`);
  const secret = (await page.getByTestId('ops-enrol-secret').textContent()) ?? '';
  await expect(page.getByTestId('ops-enrol-qr')).toBeVisible();
  await page.getByTestId('ops-enrol-password').fill(OPERATOR.password);
  const code = totpOf(secret).generate({ timestamp: await serverNow(page.request) });
  await page.getByTestId('ops-enrol-code').fill(code);
  await page.getByTestId('ops-enrol-submit').click();
  await expect(page.getByTestId('ops-roles')).toHaveText('(admin)');
  expect(page.url()).not.toContain('enrol');
  // Admin has no support pages; Operators and Audit only.
  await expect(page.getByTestId('ops-tab-support')).toHaveCount(0);
  await expect(page.getByTestId('ops-operators')).toBeVisible();

  const helper = `e2e_help_${stamp}`;
  await page.getByTestId('ops-new-operator-name').fill(helper);
  await expect(page.getByTestId('ops-new-operator-roles').locator('[data-role="finance"]')).toBeDisabled();
  await page.getByTestId('ops-add-operator').click();
  await expect(page.getByTestId('ops-enrolment-link')).toContainText('#enrol=');
  const row = page.getByTestId('ops-operators-table').locator(`tr[data-name="${helper}"]`);
  await expect(row).toContainText('awaiting enrolment');
  // Your own row has no role editor (nobody changes their own roles).
  await expect(
    page.getByTestId('ops-operators-table').locator(`tr[data-name="${admin}"]`).getByTestId('ops-operator-roles'),
  ).toHaveCount(0);

  await page.getByTestId('ops-tab-audit').click();
  await expect(page.getByTestId('ops-audit-chain').locator('[data-state="ok"]')).toBeVisible();
  await page.getByTestId('ops-audit-actor').fill(admin);
  await page.getByTestId('ops-audit-search').click();
  await expect(page.getByTestId('ops-audit-events')).toContainText('operator_added');
  await expect(page.getByTestId('ops-audit-events')).toContainText(helper);
  await context.close();
});
