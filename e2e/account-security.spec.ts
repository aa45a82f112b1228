import { Secret, TOTP } from 'otpauth';
import { logIn, newAccount, registerByApi } from './account/account-helpers.ts';
import { expect, test } from './support/fixtures.ts';

/**
 * Issue 31: an authenticator app is set up from the security settings by reading its secret off the
 * screen (as a phone app would from the QR code), and from then on a password alone does not sign in.
 * Codes are computed here, as an authenticator app computes them (RFC 6238, SHA-1, 6 digits, 30 s).
 */
const STEP_MS = 30_000;
const stepOf = (ms: number) => Math.floor(ms / STEP_MS);

function codeAt(secret: string, ms: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: ms,
  });
}

test('enrol an authenticator app, sign out, sign in with password + code', async ({ page, playwright, baseURL }) => {
  test.setTimeout(120_000);
  const account = newAccount('totp');
  const api = await playwright.request.newContext({ baseURL });
  await registerByApi(api, account);
  await api.dispose();

  await logIn(page, account.username, account.password);
  await page.goto('/securitySettings');
  await expect(page.getByTestId('totp-state')).toBeVisible();
  await page.getByTestId('totp-enrol').click();
  await expect(page.getByTestId('totp-qr')).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const enrolledAt = Date.now();
  await page.getByTestId('totp-code').fill(codeAt(secret, enrolledAt));
  await page.getByTestId('totp-confirm').click();
  const codes = page.getByTestId('recovery-codes');
  await expect(codes).toBeVisible();
  expect((await codes.locator('pre').textContent())?.trim().split('\n')).toHaveLength(10);
  await page.getByTestId('recovery-codes-done').click();

  await page.getByTestId('security-logout').click();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByTestId('login-identifier').fill(account.email);
  await page.getByTestId('login-password').fill(account.password);
  await page.getByTestId('login-submit').click();
  const factor = page.getByTestId('login-factor-code');
  await expect(factor).toBeVisible();
  // The enrolment's code is spent (a time step is accepted once): type the next step's code, as an app
  // whose clock runs a little ahead shows it (the server accepts one step either side), instead of
  // waiting up to 30 s for the clock to reach it.
  await factor.fill(codeAt(secret, Math.max(Date.now(), (stepOf(enrolledAt) + 1) * STEP_MS)));
  await page.getByTestId('login-factor-submit').click();
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto('/securitySettings');
  await expect(page.getByTestId('security-email')).toContainText('***@example.com');
  await expect(page.getByTestId('totp-state')).toContainText('10');
});
