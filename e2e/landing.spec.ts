import { expect, test, unexpectedProblems } from './support/fixtures.ts';

test('/ redirects to /signIn and the registration screen renders in zh-CN without console errors', async ({
  page,
  problems,
}) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/signIn$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/注册/);
  await expect(page.getByTestId('app-frame')).toBeVisible();
  expect(unexpectedProblems(problems)).toEqual([]);
});

test('an unknown path redirects to /signIn through the index route', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/signIn$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/注册/);
});
