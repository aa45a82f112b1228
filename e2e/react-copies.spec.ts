import { expect, navigateInApp, REMOTE_HUBS, test } from './support/fixtures.ts';

declare global {
  interface Window {
    __reactRenderers?: number;
  }
}

test('host and all five remotes share exactly one React renderer', async ({ page }) => {
  // A stand-in for React DevTools: every React DOM copy registers itself here.
  await page.addInitScript(() => {
    let nextId = 0;
    window.__reactRenderers = 0;
    Object.defineProperty(window, '__REACT_DEVTOOLS_GLOBAL_HOOK__', {
      configurable: true,
      value: {
        renderers: new Map(),
        supportsFiber: true,
        isDisabled: false,
        inject(renderer: unknown) {
          window.__reactRenderers = (window.__reactRenderers ?? 0) + 1;
          nextId += 1;
          this.renderers.set(nextId, renderer);
          return nextId;
        },
        checkDCE() {},
        onScheduleFiberRoot() {},
        onCommitFiberRoot() {},
        onCommitFiberUnmount() {},
        onPostCommitFiberRoot() {},
      },
    });
  });
  await page.goto('/signIn');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  for (const { remote, path } of REMOTE_HUBS) {
    await navigateInApp(page, path);
    await expect(page.getByTestId(`${remote}-hub`)).toBeVisible();
  }
  expect(await page.evaluate(() => window.__reactRenderers)).toBe(1);
});
