import path from 'node:path';
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
/** With SHOTS_DIR=<folder>, the login form with the code field is saved there in the four languages. */
const SHOTS_DIR = process.env.SHOTS_DIR;
const LANGUAGES = ['zh-CN', 'zh-TW', 'en', 'es'] as const;

function codeAt(secret: string, ms: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: ms,
  });
}

test('enrol an authenticator app, sign out, sign in with password + code; a returning device in one request', async ({
  page,
  playwright,
  baseURL,
}) => {
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
  // Three sign-ins' codes without waiting for the clock: each a step newer than the one before, all
  // within the step either side the server accepts (the enrolment takes the one before the current).
  const step0 = stepOf(Date.now());
  await page.getByTestId('totp-code').fill(codeAt(secret, (step0 - 1) * STEP_MS));
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
  // This browser is new to the code: the password first, then the code step (the enrolment's step is spent).
  await factor.fill(codeAt(secret, step0 * STEP_MS));
  await page.getByTestId('login-factor-submit').click();
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto('/securitySettings');
  await expect(page.getByTestId('security-email')).toContainText('***@example.com');
  await expect(page.getByTestId('totp-state')).toContainText('10');

  // Next time this browser asks for the code under the password and sends both in one request.
  await page.getByTestId('security-logout').click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByTestId('login-identifier').fill(account.email.toUpperCase());
  const code = page.getByTestId('login-code');
  await expect(code).toBeVisible();
  await page.getByTestId('login-password').fill(account.password);
  if (SHOTS_DIR) {
    const select = page.getByTestId('language-switch-select');
    const before = await select.inputValue();
    // The sign-out's toast would cover the form: let it go first.
    await expect(page.locator('.adm-toast-main')).toHaveCount(0, { timeout: 10_000 });
    for (const lang of LANGUAGES) {
      await select.selectOption(lang);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await page.screenshot({ path: path.join(SHOTS_DIR, `login-with-code-${lang}.png`) });
    }
    await select.selectOption(before);
  }
  const signIns: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/auth/login')) signIns.push(new URL(request.url()).pathname);
  });
  await code.fill(codeAt(secret, (step0 + 1) * STEP_MS));
  await page.getByTestId('login-submit').click();
  await expect(page).not.toHaveURL(/\/login$/);
  expect(signIns).toEqual(['/api/auth/login']);
});
