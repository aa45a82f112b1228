import { expect, test } from '../support/fixtures.ts';
import { carryRegisteredDevice, logIn, newAccount, readCode, registerByApi } from './account-helpers.ts';

test('guarded pages send a visitor to log in and back; fund password; a password change signs out the other device', async ({
  browser,
  playwright,
  baseURL,
}) => {
  const account = newAccount('sec');
  const api = await playwright.request.newContext({ baseURL });
  await registerByApi(api, account);
  await api.dispose();

  // Another device is signed in.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await logIn(otherPage, account.username, account.password);

  // A visitor asking for a guarded page is told to log in first, then returns there.
  const context = await browser.newContext();
  await carryRegisteredDevice(context, account.email);
  const page = await context.newPage();
  await page.goto('/securitySettings');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('请先登录')).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('vuex') ?? '{}').user?.allowBack))
    .toBe(true);
  await page.getByTestId('login-identifier').fill(account.email);
  await page.getByTestId('login-password').fill(account.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/securitySettings$/);
  await expect(page.getByTestId('security-email')).toContainText('***@example.com');

  // Both devices are listed.
  const sessions = page.getByTestId('security-sessions');
  await expect(sessions.getByTestId('session-current')).toHaveCount(1);
  await expect(sessions.getByTestId('session-other')).toHaveCount(1);

  // Set the fund password with an e-mailed code.
  await page.getByTestId('security-fund-password').click();
  const since = Date.now();
  await page.getByTestId('fund-send-code').click();
  const code = await readCode(page.request, account.email, since);
  await page.getByTestId('fund-code').fill(code);
  await page.getByTestId('fund-password').fill('12345');
  await page.getByTestId('fund-confirm').fill('123456');
  await page.getByTestId('fund-submit').click();
  await expect(page.getByTestId('field-error-fundPassword')).toHaveText('资金密码为6位数字');
  await page.getByTestId('fund-password').fill('123456');
  await page.getByTestId('fund-submit').click();
  await expect(page.getByTestId('field-error-fundPassword')).toHaveText(
    '资金密码过于简单：请勿使用重复或连续的数字，如 000000、123456',
  );
  await page.getByTestId('fund-password').fill('739164');
  await page.getByTestId('fund-confirm').fill('739164');
  await page.getByTestId('fund-submit').click();
  await expect(page.getByTestId('fund-password-form')).toHaveCount(0);
  await expect(page.getByTestId('security-fund-password')).toContainText('已设置');
  const verified = await page.request.post('/api/me/fund-password/verify', { data: { fundPassword: '739164' } });
  expect(verified.status()).toBe(204);

  // Change the login password: a wrong old password is reported inline, then it works.
  await page.getByTestId('security-login-password').click();
  await expect(page).toHaveURL(/\/editLoginPwd$/);
  const newPassword = 'N3w_password!';
  await page.getByTestId('edit-pwd-old').fill('Not_the_old1');
  await page.getByTestId('edit-pwd-new').fill(newPassword);
  await page.getByTestId('edit-pwd-confirm').fill(newPassword);
  await page.getByTestId('edit-pwd-submit').click();
  // A wrong current password counts on the login throttle: the field says how many tries are left.
  await expect(page.getByTestId('field-error-oldPassword')).toHaveText('密码错误，还可尝试5次');
  await page.getByTestId('edit-pwd-old').fill(account.password);
  await page.getByTestId('edit-pwd-submit').click();
  await expect(page).toHaveURL(/\/securitySettings$/);
  await expect(sessions.getByTestId('session-current')).toHaveCount(1);
  await expect(sessions.getByTestId('session-other')).toHaveCount(0);

  // The other device was signed out: its guarded page now asks for a login.
  await otherPage.goto('/securitySettings');
  await expect(otherPage).toHaveURL(/\/login$/);
  await logIn(otherPage, account.username, newPassword);

  // Log out.
  await page.getByTestId('security-logout').click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await page.request.get('/api/me')).status()).toBe(401);

  await other.close();
  await context.close();
});
