import { expect, test } from './support/fixtures.ts';

interface ToastTimes {
  click?: number;
  shown?: number;
  hidden?: number;
  cleared?: number;
}

declare global {
  interface Window {
    __toastTimes?: ToastTimes;
  }
}

test('a toast appears ~100 ms after the click, stays ~3 s, and the list clears ~500 ms later', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/settings');
  await expect(page.getByTestId('copy-build')).toBeVisible();

  // Timestamps taken in the page, by a click listener and a MutationObserver.
  await page.evaluate(() => {
    const times: ToastTimes = {};
    window.__toastTimes = times;
    const items = () => document.querySelectorAll('[data-testid=toast-item]');
    document.addEventListener(
      'click',
      (event) => {
        if ((event.target as Element).closest('[data-testid=copy-build]')) times.click ??= performance.now();
      },
      true,
    );
    const observer = new MutationObserver(() => {
      const now = performance.now();
      const list = [...items()];
      if (times.shown === undefined && list.some((el) => el.getAttribute('data-state') === 'visible')) {
        times.shown = now;
      }
      if (
        times.shown !== undefined &&
        times.hidden === undefined &&
        list.every((el) => el.getAttribute('data-state') !== 'visible')
      ) {
        times.hidden = now;
      }
      if (times.shown !== undefined && times.cleared === undefined && list.length === 0) {
        times.cleared = now;
        times.hidden ??= now;
        observer.disconnect();
      }
    });
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-state'],
    });
  });

  await page.getByTestId('copy-build').click();
  await page.waitForFunction(() => window.__toastTimes?.cleared !== undefined, undefined, { timeout: 10_000 });
  const times = (await page.evaluate(() => window.__toastTimes)) as Required<ToastTimes>;

  const appearMs = times.shown - times.click;
  const visibleMs = times.hidden - times.shown;
  const clearMs = times.cleared - times.hidden;
  test.info().annotations.push({ type: 'timing', description: JSON.stringify({ appearMs, visibleMs, clearMs }) });
  expect(appearMs).toBeGreaterThanOrEqual(60);
  expect(appearMs).toBeLessThanOrEqual(400);
  expect(visibleMs).toBeGreaterThanOrEqual(2700);
  expect(visibleMs).toBeLessThanOrEqual(3600);
  expect(clearMs).toBeGreaterThanOrEqual(300);
  expect(clearMs).toBeLessThanOrEqual(900);
});
