import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { logIn, newAccount, registerByApi } from './account/account-helpers.ts';
import { expect, test } from './support/fixtures.ts';

/** Every route a visitor can open, and every route of a logged-in user (mobile viewport). */
const VISITOR_ROUTES = [
  '/signIn',
  '/login',
  '/forgetPassword',
  '/agreement',
  '/coinTopup',
  '/convert',
  '/rewards',
  '/mail',
  '/notice',
  '/support',
  '/settings',
];
const USER_ROUTES = [
  '/coinTopup',
  '/coinTopup/deposit',
  '/coinTopup/send',
  '/coinTopup/send?mode=send',
  '/coinTopup/history',
  '/coinTopup/verify',
  '/addressBook',
  '/addressBook/add',
  '/convert',
  '/convert/history',
  '/exchange',
  '/exchange/history',
  '/buySell',
  '/buySell/orders',
  '/buySell/paymentMethods',
  '/buySell/paymentMethods/add',
  '/rewards',
  '/sign',
  '/likes',
  '/invite',
  '/mail',
  '/notice',
  '/sendemails',
  '/sendHistory',
  '/support',
  '/supportMail',
  '/supportMail/new',
  '/chat',
  '/settings',
  '/language',
  '/priceMode',
  '/helpCenter',
  '/securitySettings',
  '/editLoginPwd',
  '/appDown',
];

/** Serious and critical WCAG 2 A/AA violations on the page as it stands, one line each. */
async function seriousViolations(page: Page, route: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${route}: ${v.id} (${v.impact}) ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
}

/** Routes that keep an event stream open: the network never goes idle there. */
const LIVE_ROUTES: Record<string, string> = { '/chat': '[data-testid="chat-screen"][data-connection="open"]' };

async function settle(page: Page, route = '') {
  const live = LIVE_ROUTES[route];
  if (live) await expect(page.locator(live)).toBeVisible();
  else await page.waitForLoadState('networkidle');
  await expect(page.locator('.adm-skeleton, [data-testid="state-loading"]')).toHaveCount(0);
}

// axe takes one to three seconds a page in Debian Chromium on a two-core machine, more under load: the
// visitor and the user walks are two tests, each with room for its 11 and 35 routes.
test('no serious or critical accessibility violations on any visitor route', async ({ page }) => {
  test.setTimeout(240_000);
  const found: string[] = [];
  for (const route of VISITOR_ROUTES) {
    await page.goto(route);
    await settle(page);
    found.push(...(await seriousViolations(page, `visitor ${route}`)));
  }
  expect(found).toEqual([]);
});

test('no serious or critical accessibility violations on any route of a signed-in user', async ({ page }) => {
  test.setTimeout(480_000);
  const account = newAccount('axe');
  await registerByApi(page.context().request, account);
  await logIn(page, account.username, account.password);
  const found: string[] = [];
  for (const route of USER_ROUTES) {
    await page.goto(route);
    await settle(page, route);
    found.push(...(await seriousViolations(page, route)));
  }
  expect(found).toEqual([]);
});
