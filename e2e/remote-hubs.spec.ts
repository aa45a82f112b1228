import { expect, REMOTE_HUBS, test, unexpectedProblems } from './support/fixtures.ts';

for (const { remote, path } of REMOTE_HUBS) {
  test(`${path} renders the ${remote} remote's hub with its build id`, async ({ page, problems }) => {
    await page.goto(path);
    const hub = page.getByTestId(`${remote}-hub`);
    await expect(hub).toBeVisible();
    await expect(hub.getByTestId('build-id')).toBeVisible();
    await expect(hub.getByTestId('build-id')).not.toBeEmpty();
    expect(unexpectedProblems(problems)).toEqual([]);
  });
}
