import { expect, REMOTE_HUBS, test, unexpectedProblems } from './support/fixtures.ts';

for (const { remote, path } of REMOTE_HUBS) {
  test(`${path} renders the ${remote} remote's hub with its build id`, async ({ page, problems }) => {
    await page.goto(path);
    const hub = page.getByTestId(`${remote}-hub`);
    await expect(hub).toBeVisible();
    await expect(hub.getByTestId('build-id')).toBeAttached();
    await expect(hub.getByTestId('build-id')).not.toBeEmpty();
    // The version line is shown in settings/about only, not on the other hubs (issue 30 item 6).
    if (remote === 'settings') await expect(hub.getByTestId('build-id')).toBeVisible();
    else await expect(hub.getByTestId('build-id')).toBeHidden();
    expect(unexpectedProblems(problems)).toEqual([]);
  });
}
