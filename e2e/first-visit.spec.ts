import { logIn, newAccount, registerByApi } from './account/account-helpers.ts';
import { expect, test } from './support/fixtures.ts';

test.describe('a Spanish-speaking browser', () => {
  test.use({ locale: 'es-ES' });

  test('first visit in Spanish; the globe switch changes the language and that choice wins', async ({ page }) => {
    await page.goto('/signIn');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Registrarse');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');

    await page.getByTestId('language-switch-select').selectOption('en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign up');
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in');
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in');
    await expect(page.getByTestId('language-switch-select')).toHaveValue('en');
  });
});

test('a logged-in user who opens / or /signIn goes to the wallet; a visitor stays on registration', async ({
  page,
  request,
}) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/signIn$/);
  await expect(page.getByTestId('signup-screen')).toBeVisible();

  const account = newAccount('land');
  await registerByApi(request, account);
  await logIn(page, account.username, account.password);
  await page.goto('/');
  await expect(page).toHaveURL(/\/coinTopup$/);
  await page.goto('/signIn');
  await expect(page).toHaveURL(/\/coinTopup$/);
});

test('settings: the account section opens the security settings, and logs out after a confirm', async ({
  page,
  request,
}) => {
  const account = newAccount('acct');
  await registerByApi(request, account);
  await logIn(page, account.username, account.password);
  await page.goto('/settings');
  await expect(page.getByTestId('settings-account-name')).toHaveText(account.username);
  await expect(page.getByTestId('settings-account-email')).toContainText('***@example.com');
  await page.getByTestId('settings-security').click();
  await expect(page).toHaveURL(/\/securitySettings$/);
  await page.goBack();
  await page.getByTestId('settings-logout').click();
  await page.getByTestId('dialog-cancel').click();
  await expect(page.getByTestId('settings-account-name')).toBeVisible();
  await page.getByTestId('settings-logout').click();
  await page.getByTestId('dialog-confirm').click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await page.request.get('/api/session')).ok()).toBe(true);
  expect(await (await page.request.get('/api/session')).json()).toEqual({ user: null });
});
