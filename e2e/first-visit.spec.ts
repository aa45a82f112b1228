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
