import { test as base, expect, type Page } from '@playwright/test';

export { expect };

/** Console errors and uncaught page errors seen during a test. */
export interface PageProblems {
  list: string[];
}

export const test = base.extend<{ problems: PageProblems }>({
  problems: async ({ page }, use) => {
    const problems: PageProblems = { list: [] };
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const url = message.location().url;
      problems.list.push(`console: ${message.text()}${url ? ` (${url})` : ''}`);
    });
    page.on('pageerror', (error) => problems.list.push(`pageerror: ${error.message}`));
    await use(problems);
  },
});

/**
 * Client-side navigation inside the running app (no page load): push the
 * path and tell the router, as a link click would.
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
  await expect(page).toHaveURL((url) => url.pathname === path.split('?')[0]);
}

/** The five remotes and the hub each shows first. */
export const REMOTE_HUBS = [
  { remote: 'wallet', path: '/coinTopup' },
  { remote: 'convert', path: '/convert' },
  { remote: 'rewards', path: '/rewards' },
  { remote: 'mail', path: '/mail' },
  { remote: 'settings', path: '/settings' },
] as const;

/** A signed-out visitor's API calls answer 401 by design; the browser logs those. */
export function unexpectedProblems(problems: PageProblems): string[] {
  return problems.list.filter((p) => !/status of 401 .*\/api\//.test(p));
}

export const REMOTE_LOAD_FAILED_ZH = '请求失败，点击重新加载';
