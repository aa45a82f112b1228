import { newAccount, registerByApi } from './account/account-helpers.ts';
import { signInByApi } from './account/sign-in-by-api.ts';
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
  await signInByApi(page.context(), account.username, account.password);
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
  await signInByApi(page.context(), account.username, account.password);
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

test('a real web app manifest: name, icons, theme colour, standalone, start URL', async ({ page, request }) => {
  await page.goto('/signIn');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const response = await request.get(href ?? '');
  expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = (await response.json()) as {
    name: string;
    display: string;
    start_url: string;
    theme_color: string;
    icons: { src: string; sizes: string; type: string }[];
  };
  expect(manifest).toMatchObject({ name: 'CW Wallet', display: 'standalone', start_url: '/coinTopup' });
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  for (const size of ['192x192', '512x512']) {
    const icon = manifest.icons.find((i) => i.sizes === size && i.type === 'image/png');
    expect(icon, size).toBeTruthy();
    const png = await request.get(icon?.src ?? '');
    expect([size, png.status(), png.headers()['content-type']]).toEqual([size, 200, 'image/png']);
  }
});

test('registration success on a phone: install from here, no QR code to scan', async ({ page, request }) => {
  const account = newAccount('appdown');
  await registerByApi(request, account);
  await signInByApi(page.context(), account.username, account.password);
  await page.goto('/appDown');
  await expect(page.getByTestId('app-install-here')).toBeVisible();
  await expect(page.getByTestId('app-download-qr')).toHaveCount(0);
});

test('@desktop registration success on a desktop shows the QR code for the phone', async ({ page }) => {
  await page.goto('/appDown');
  await expect(page.getByTestId('app-download-qr')).toBeVisible();
  await expect(page.getByTestId('app-install-here')).toHaveCount(0);
});
