import { expect, test, unexpectedProblems } from '../support/fixtures.ts';
import { gotoLanding, newAccount, readCode, useLanguage } from './account-helpers.ts';

test('registers on the landing page with the e-mailed code and lands on /appDown', async ({ page, problems }) => {
  const account = newAccount('reg');
  await page.goto('/signIn');
  await page.getByTestId('signup-username').fill(account.username);
  await page.getByTestId('signup-nickname').fill('小明');
  await page.getByTestId('signup-country').click();
  await page.getByTestId('country-search').locator('input').fill('西班牙');
  await page.getByTestId('country-option-ES').click();
  await expect(page.getByTestId('signup-country')).toHaveText('西班牙');
  await page.getByTestId('signup-password').fill(account.password);
  await page.getByTestId('signup-confirm').fill(account.password);
  await page.getByTestId('signup-email').fill(account.email);
  const since = Date.now();
  await page.getByTestId('signup-send-code').click();
  await expect(page.getByTestId('signup-send-code')).toHaveText(/\d+秒后重发/);
  await expect(page.getByTestId('signup-send-code')).toBeDisabled();
  const code = await readCode(page.request, account.email, since);
  await page.getByTestId('signup-code').fill(code);
  await page.getByTestId('signup-agree').check();
  await page.getByTestId('signup-submit').click();

  await expect(page).toHaveURL(/\/appDown$/);
  await expect(page.getByTestId('app-down-welcome')).toContainText('小明');
  const me = await page.request.get('/api/me');
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ username: account.username, country: 'ES', nickname: '小明' });
  expect(unexpectedProblems(problems)).toEqual([]);
});

test('a taken e-mail is reported on the e-mail field when sending the code (en)', async ({ page, request }) => {
  await useLanguage(page, 'en');
  const first = newAccount('dup');
  await gotoLanding(page, '/signIn');
  // Register the address first through the API, in a request context of its own: with the page's
  // cookies the new session would reach the open sign-up page, which sends a signed-in user to the wallet.
  const since = Date.now();
  await request.post('/api/auth/codes', { data: { email: first.email, purpose: 'register' } });
  const code = await readCode(request, first.email, since);
  const created = await request.post('/api/auth/register', {
    data: {
      username: first.username,
      country: 'CN',
      password: first.password,
      confirmPassword: first.password,
      email: first.email,
      code,
      agreementAccepted: true,
    },
  });
  expect(created.status()).toBe(201);

  await page.getByTestId('signup-email').fill(first.email.toUpperCase());
  await page.getByTestId('signup-send-code').click();
  await expect(page.getByTestId('field-error-email')).toHaveText('Email already exists');
});
