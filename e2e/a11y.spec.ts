import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { logIn, newAccount, registerByApi } from './account/account-helpers.ts';
import {
  ensureOperator,
  OPERATOR,
  OPS_CONSOLE_URL,
  opsCommand,
  serverNow,
  signInOperatorPage,
  tokenOf,
  totpOf,
} from './mail/mail-helpers.ts';
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

/**
 * The operator console (its own origin): the sign-in and enrolment pages, then every page of a signed-in
 * operator (an admin with support and compliance: Support, Withdrawals, Operators, Audit, My account; a
 * finance operator: Dashboard). The Support page keeps the chat's event stream open, so pages settle on their
 * own content rather than on an idle network.
 */
test('@desktop no serious or critical accessibility violations on the operator console', async ({ browser }) => {
  test.setTimeout(240_000);
  const found: string[] = [];
  const context = await browser.newContext();
  const page = await context.newPage();
  const check = async (label: string, ready: string) => {
    await expect(page.getByTestId(ready).first()).toBeVisible();
    await expect(page.getByText('Loading…')).toHaveCount(0);
    found.push(...(await seriousViolations(page, `console ${label}`)));
  };
  await page.goto(OPS_CONSOLE_URL);
  await check('sign-in', 'ops-sign-in');

  const admin = `e2e_axe_${String(Date.now()).slice(-8)}`;
  await page.goto(
    `${OPS_CONSOLE_URL}#enrol=${tokenOf(await opsCommand(['operators', 'add', admin, '--roles', 'admin,support,compliance']))}`,
  );
  // Only the fragment changed: the console reads the link when it loads.
  await page.reload();
  await check('enrol', 'ops-enrol-secret');
  const secret = (await page.getByTestId('ops-enrol-secret').textContent()) ?? '';
  await page.getByTestId('ops-enrol-password').fill(OPERATOR.password);
  await page.getByTestId('ops-enrol-code').fill(totpOf(secret).generate({ timestamp: await serverNow(page.request) }));
  await page.getByTestId('ops-enrol-submit').click();
  await expect(page.getByTestId('ops-roles')).toBeVisible();
  for (const [tab, ready] of [
    ['support', 'ops-tab-support'],
    ['withdrawals', 'ops-withdrawals'],
    ['operators', 'ops-operators'],
    ['audit', 'ops-audit-chain'],
    ['me', 'ops-my-account'],
  ] as const) {
    await page.getByTestId(`ops-tab-${tab}`).click();
    await check(tab, ready);
  }
  await context.close();

  const financeName = 'e2e_axe_finance';
  await ensureOperator(financeName, 'finance');
  const finance = await browser.newContext();
  const financePage = await finance.newPage();
  await financePage.goto(OPS_CONSOLE_URL);
  await signInOperatorPage(financePage, financeName);
  await expect(financePage.getByTestId('ops-roles')).toBeVisible();
  await financePage.getByTestId('ops-tab-dashboard').click();
  await expect(financePage.getByTestId('ops-dash-check')).toBeVisible();
  found.push(...(await seriousViolations(financePage, 'console dashboard')));
  await finance.close();
  expect(found).toEqual([]);
});
