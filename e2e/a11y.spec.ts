import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { newAccount, registerByApi } from './account/account-helpers.ts';
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
import { type NetworkWatch, watchNetwork } from './support/network-watch.ts';

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

/**
 * Serious and critical WCAG 2 A/AA violations on the page as it stands, one line each.
 * Cost, measured under load: the default analysis took 5-11 s a route against about 1 s for axe.run() itself.
 * It evaluates axe's 550 kB source again on every call and then finishes the run in a blank page it opens;
 * so axe is put into a document once (later calls evaluate an empty script: the walks change routes inside one
 * document), and legacy mode runs axe.run() in the page. Legacy mode only differs for cross-origin iframes,
 * which neither the app nor the console has; both modes found the same violations (injected ones too) on the
 * wallet's routes. `resultTypes` spares axe building selectors for passes it would throw away.
 */
async function seriousViolations(page: Page, route: string): Promise<string[]> {
  const loaded = await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
  const results = await new AxeBuilder({ page, ...(loaded ? { axeSource: ';' } : {}) })
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .setLegacyMode()
    .analyze();
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

/**
 * Opens `route` in the running app (a client-side route change, as a link does: one app load serves the
 * whole walk) and waits until it has rendered: the network quiet (or the live route's stream open), no
 * loading screen or skeleton left.
 */
async function openRoute(page: Page, network: NetworkWatch, route: string) {
  network.touch();
  // As fixtures' navigateInApp, without its URL check: a route may redirect (a guard, an index route), as
  // it did when it was opened by a page load.
  await page.evaluate((target) => {
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, route);
  const live = LIVE_ROUTES[route];
  if (live) await expect(page.locator(live)).toBeVisible();
  else await network.quiet();
  await expect(page.locator('.page-loading, .adm-skeleton, [data-testid="state-loading"]')).toHaveCount(0);
}

// axe takes one to three seconds a page in Debian Chromium on a two-core machine, more under load. Each walk
// loads the app once and moves through its routes inside it (the routes render as a link would open them);
// the first route is a full page load.
test('no serious or critical accessibility violations on any visitor route', async ({ page }) => {
  test.setTimeout(240_000);
  const network = watchNetwork(page, { quietMs: 500, pollMs: 100 });
  const found: string[] = [];
  await page.goto(VISITOR_ROUTES[0] ?? '/signIn');
  await page.waitForLoadState('networkidle');
  for (const route of VISITOR_ROUTES) {
    await openRoute(page, network, route);
    found.push(...(await seriousViolations(page, `visitor ${route}`)));
  }
  expect(found).toEqual([]);
});

test('no serious or critical accessibility violations on any route of a signed-in user', async ({ page }) => {
  test.setTimeout(480_000);
  const network = watchNetwork(page, { quietMs: 500, pollMs: 100 });
  const account = newAccount('axe');
  await registerByApi(page.context().request, account);
  // Signed in through the API (the sign-in screen is not what is checked here; the visitor walk checks it).
  const signedIn = await page.request.post('/api/auth/login', {
    data: { identifier: account.username, password: account.password },
  });
  expect(signedIn.status()).toBe(200);
  await page.goto(USER_ROUTES[0] ?? '/coinTopup');
  await page.waitForLoadState('networkidle');
  const found: string[] = [];
  for (const route of USER_ROUTES) {
    await openRoute(page, network, route);
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
