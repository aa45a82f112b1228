import type { APIRequestContext, Browser } from '@playwright/test';
import { E2E_DEV_URL } from '../support/e2e-env.ts';
import { expect, test } from '../support/fixtures.ts';
import { gotoLanding, newAccount, registerByApi, useLanguage } from './account-helpers.ts';

/**
 * Issue 31, new-device confirmation: a sign-in from a browser the account never used waits for the
 * e-mail (code typed on the "Check your e-mail" screen, or the mail's link); the mail's "this was not
 * me" link freezes the account and ends the waiting sign-in. The screen at 390x844 in 4 languages.
 */
interface MailMessage {
  to: string;
  text: string;
  createdAt: string;
}

/** The newest new-device mail to `email` after `since` (dev mailbox): its code and links. */
async function deviceMail(request: APIRequestContext, email: string, since: number) {
  let found: { code: string; freeze: string; approve: string } | undefined;
  await expect
    .poll(
      async () => {
        const { messages } = (await (await request.get(`${E2E_DEV_URL}/dev/mailbox.json`)).json()) as {
          messages: MailMessage[];
        };
        const text = messages.find(
          (m) =>
            m.to.toLowerCase() === email.toLowerCase() &&
            Date.parse(m.createdAt) >= since - 1000 &&
            m.text.includes('/confirm-device#t='),
        )?.text;
        const code = text && /^(\d{6})\r?$/m.exec(text)?.[1];
        const freeze = text && /https?:\/\/\S+\/freeze#t=[A-Za-z0-9_-]{22}/.exec(text)?.[0];
        const approve = text && /https?:\/\/\S+\/confirm-device#t=[A-Za-z0-9_-]{43}/.exec(text)?.[0];
        found = code && freeze && approve ? { code, freeze, approve } : undefined;
        return found;
      },
      { timeout: 15_000, message: `a new-device mail to ${email}` },
    )
    .toBeTruthy();
  return found ?? { code: '', freeze: '', approve: '' };
}

/** A browser that never signed in to the account (no device cookie) signs in with the password. */
async function signInFromNewBrowser(
  browser: Browser,
  account: ReturnType<typeof newAccount>,
  language: 'zh-CN' | 'zh-TW' | 'en' | 'es' = 'zh-CN',
) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  // biome-ignore lint/correctness/useHookAtTopLevel: useLanguage is a Playwright helper, not a React hook.
  await useLanguage(page, language);
  await gotoLanding(page, '/login');
  await page.getByTestId('login-identifier').fill(account.username);
  await page.getByTestId('login-password').fill(account.password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('device-confirmation')).toBeVisible();
  return { context, page };
}

test('a new browser signs in with the e-mailed code; the screen in four languages', async ({
  browser,
  playwright,
  baseURL,
}, testInfo) => {
  test.setTimeout(180_000);
  const account = newAccount('newdev');
  const api = await playwright.request.newContext({ baseURL });
  await registerByApi(api, account);

  for (const language of ['zh-CN', 'zh-TW', 'en', 'es'] as const) {
    const since = Date.now();
    const { context, page } = await signInFromNewBrowser(browser, account, language);
    await expect(page.getByTestId('device-confirmation-lead')).toContainText('@example.com');
    await page.screenshot({ path: testInfo.outputPath(`new-device-${language}-390.png`), fullPage: true });
    // Nothing of the account is reachable meanwhile.
    const refused = await page.request.get('/api/me');
    expect((await refused.json()).code).toBe('DEVICE_CONFIRMATION_REQUIRED');
    const { code } = await deviceMail(api, account.email, since);
    await page.getByTestId('device-code').fill(code);
    await page.getByTestId('device-confirm').click();
    await expect(page).not.toHaveURL(/\/login$/);
    expect((await page.request.get('/api/me')).status()).toBe(200);
    // Known now: the next sign-in from this browser goes straight in.
    expect((await page.request.post('/api/auth/logout')).status()).toBe(204);
    const again = await page.request.post('/api/auth/login', {
      data: { identifier: account.username, password: account.password },
    });
    expect(again.status()).toBe(200);
    await context.close();
  }
  await api.dispose();
});

test('the mail link approves from another device, and "this was not me" freezes the account', async ({
  browser,
  playwright,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const account = newAccount('notme');
  const api = await playwright.request.newContext({ baseURL });
  await registerByApi(api, account);

  // Approved by the link opened elsewhere (a phone): the waiting screen moves on by itself.
  let since = Date.now();
  const first = await signInFromNewBrowser(browser, account);
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phonePage = await phone.newPage();
  const { approve } = await deviceMail(api, account.email, since);
  const approveUrl = new URL(approve);
  await phonePage.goto(`${approveUrl.pathname}${approveUrl.hash}`);
  await phonePage.screenshot({ path: testInfo.outputPath('new-device-link-390.png') });
  await phonePage.getByTestId('device-link-approve').click();
  await expect(phonePage.getByTestId('device-link-done')).toBeVisible();
  await expect(first.page).not.toHaveURL(/\/login$/, { timeout: 15_000 });
  await first.context.close();

  // Another browser: the owner did not do it; the mail's freeze link stops everything.
  since = Date.now();
  const thief = await signInFromNewBrowser(browser, account);
  const { freeze } = await deviceMail(api, account.email, since);
  const freezeUrl = new URL(freeze);
  await phonePage.goto(`${freezeUrl.pathname}${freezeUrl.hash}`);
  await phonePage.getByTestId('freeze-link-confirm').click();
  await expect(phonePage.getByTestId('freeze-link-done')).toBeVisible();
  // The waiting sign-in ended with every session: the screen goes back to the password form.
  await expect(thief.page.getByTestId('login-submit')).toBeVisible({ timeout: 15_000 });
  const status = await (await thief.page.request.get('/api/auth/device')).json();
  expect(status.state).toBe('none');
  await thief.context.close();
  await phone.close();
  await api.dispose();
});
