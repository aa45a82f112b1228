import { carryRegisteredDevice, newAccount, registerByApi, useLanguage } from './account/account-helpers.ts';
import { signInByApi } from './account/sign-in-by-api.ts';
import { E2E_DEV_URL } from './support/e2e-env.ts';
import { expect, test } from './support/fixtures.ts';

/**
 * Issue 31 item 1: the "not me" link of a security mail freezes the account without a sign-in (one
 * press on the page it opens), the owner then sees the frozen state and the unfreeze form; "Freeze my
 * account" in security settings ends the session. Screenshots at the project's viewport, 4 languages.
 */
interface MailMessage {
  to: string;
  text: string;
  createdAt: string;
}

async function freezeLinkFor(request: import('@playwright/test').APIRequestContext, email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const { messages } = (await (await request.get(`${E2E_DEV_URL}/dev/mailbox.json`)).json()) as {
          messages: MailMessage[];
        };
        const mine = messages.filter((m) => m.to.toLowerCase() === email.toLowerCase());
        link = mine.map((m) => /https?:\/\/\S+\/freeze#t=[A-Za-z0-9_-]{22}/.exec(m.text)?.[0]).find(Boolean);
        return link;
      },
      { timeout: 15_000, message: `a freeze link mailed to ${email}` },
    )
    .toBeTruthy();
  return link ?? '';
}

for (const language of ['en', 'zh-CN', 'zh-TW', 'es'] as const) {
  test(`the freeze link of a security mail freezes the account (${language})`, async ({
    page,
    playwright,
    baseURL,
  }, testInfo) => {
    test.setTimeout(120_000);
    const account = newAccount(`frz${language.replace('-', '').toLowerCase()}`);
    const api = await playwright.request.newContext({ baseURL });
    await registerByApi(api, account);
    // A password change mails a notice with the link.
    expect(
      (await api.post('/api/auth/login', { data: { identifier: account.email, password: account.password } })).status(),
    ).toBe(200);
    const changed = await api.post('/api/me/password', {
      data: {
        oldPassword: account.password,
        password: `${account.password}x`,
        confirmPassword: `${account.password}x`,
      },
    });
    expect(changed.status()).toBe(204);
    const link = new URL(await freezeLinkFor(api, account.email));

    // The owner opens the mail's link in their own browser: it stays known (every other one is forgotten).
    await carryRegisteredDevice(page.context(), account.username);
    await useLanguage(page, language);
    await page.goto(`${link.pathname}${link.hash}`);
    await expect(page.getByTestId('freeze-link-confirm')).toBeEnabled();
    await page.screenshot({ path: testInfo.outputPath(`freeze-link-${language}.png`) });
    await page.getByTestId('freeze-link-confirm').click();
    await expect(page.getByTestId('freeze-link-done')).toBeVisible();
    expect((await api.get('/api/me')).status()).toBe(401);

    await signInByApi(page.context(), account.username, `${account.password}x`);
    await page.goto('/securitySettings');
    await expect(page.getByTestId('freeze-state')).toBeVisible();
    await page.getByTestId('freeze-section').scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`freeze-frozen-${language}.png`) });
    await api.dispose();
  });
}

test('Freeze my account in security settings ends the session', async ({ page, playwright, baseURL }, testInfo) => {
  const account = newAccount('frzself');
  const api = await playwright.request.newContext({ baseURL });
  await registerByApi(api, account);
  await api.dispose();
  await signInByApi(page.context(), account.username, account.password);
  await page.goto('/securitySettings');
  await page.getByTestId('freeze-section').scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('freeze-section-en.png') });
  await page.getByTestId('freeze-account').click();
  await page.getByTestId('freeze-account-confirm').click();
  await expect(page).toHaveURL(/\/login$/);
});
