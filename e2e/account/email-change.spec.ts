import { ensureOperator, OPS_CONSOLE_URL, signInOperatorPage } from '../mail/mail-helpers.ts';
import { E2E_DEV_URL } from '../support/e2e-env.ts';
import { expect, test } from '../support/fixtures.ts';
import { newAccount, readCode, registerByApi, useLanguage } from './account-helpers.ts';
import { signInByApi } from './sign-in-by-api.ts';

/** The newest dev-mailbox message to `email` whose text matches `pattern`. */
async function mailTo(request: import('@playwright/test').APIRequestContext, email: string, pattern: RegExp) {
  let text = '';
  await expect
    .poll(
      async () => {
        const res = await request.get(`${E2E_DEV_URL}/dev/mailbox.json`);
        const { messages } = (await res.json()) as { messages: { to: string; text: string }[] };
        text = messages.find((m) => m.to.toLowerCase() === email.toLowerCase() && pattern.test(m.text))?.text ?? '';
        return text;
      },
      { timeout: 15_000, message: `a mail to ${email} matching ${pattern}` },
    )
    .not.toBe('');
  return text;
}

test('e-mail change: anti-phishing code set, code to the new address, notice to the old one, sign-in moves', async ({
  browser,
  page,
  playwright,
  baseURL,
}) => {
  const account = newAccount('mail');
  const api = await playwright.request.newContext({ baseURL });
  await registerByApi(api, account);
  await api.dispose();
  await signInByApi(page.context(), account.username, account.password);

  // The anti-phishing code, from security settings: set, shown masked, revealed on demand.
  await page.goto('/securitySettings');
  await page.getByTestId('security-anti-phishing').click();
  await expect(page).toHaveURL(/\/antiPhishing$/);
  await page.getByTestId('anti-phishing-input').fill('Blue Kettle 42');
  await page.getByTestId('anti-phishing-save').click();
  await expect(page.getByTestId('anti-phishing-value')).toHaveText('Bl••••••••••42');
  await page.getByTestId('anti-phishing-reveal').click();
  await expect(page.getByTestId('anti-phishing-value')).toHaveText('Blue Kettle 42');

  // Another device stays signed in until the change ends it.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signInByApi(other, account.username, account.password);

  await page.goto('/securitySettings');
  await page.getByTestId('security-change-email').click();
  await expect(page).toHaveURL(/\/changeEmail$/);
  // The current address is refused inline, with the translated reason.
  await page.getByTestId('change-email-new').fill(account.email);
  await page.getByTestId('change-email-send').click();
  await expect(page.getByTestId('field-error-newEmail')).toHaveText('新邮箱与当前邮箱相同');

  const moved = `moved_${account.username.toLowerCase()}@example.com`;
  await page.getByTestId('change-email-new').fill(moved);
  const since = Date.now();
  await page.getByTestId('change-email-send').click();
  const code = await readCode(page.request, moved, since);
  // The code mail to the new address carries the phrase too.
  expect(await mailTo(page.request, moved, /Blue Kettle 42/)).toContain(code);
  await page.getByTestId('change-email-code').fill(code);
  await page.getByTestId('change-email-submit').click();
  await expect(page).toHaveURL(/\/securitySettings$/);
  await expect(page.getByTestId('security-email')).toHaveText(`${moved.slice(0, 2)}***@example.com`);

  // The old address heard of it: the phrase on top, the "not me" freeze link.
  const notice = await mailTo(page.request, account.email, /freeze#t=/);
  expect(notice.split('\n')[0]).toContain('Blue Kettle 42');
  expect(notice).toContain(`${moved.slice(0, 2)}***@example.com`);

  // The other device was signed out; the new address signs in, the old one no longer does.
  await otherPage.goto('/securitySettings');
  await expect(otherPage).toHaveURL(/\/login$/);
  const oldLogin = await other.request.post('/api/auth/login', {
    data: { identifier: account.email, password: account.password },
  });
  expect(oldLogin.status()).toBe(401);
  const newLogin = await other.request.post('/api/auth/login', {
    data: { identifier: moved, password: account.password },
  });
  expect(newLogin.status()).toBe(200);
  await other.close();
});

for (const language of ['zh-CN', 'zh-TW', 'en', 'es'] as const) {
  test(`e-mail change and anti-phishing screens at 390x844 (${language})`, async ({
    page,
    playwright,
    baseURL,
  }, testInfo) => {
    const account = newAccount('shot');
    const api = await playwright.request.newContext({ baseURL });
    await registerByApi(api, account);
    await api.dispose();
    await useLanguage(page, language);
    await signInByApi(page.context(), account.username, account.password);
    await page.goto('/securitySettings');
    await page.getByTestId('security-anti-phishing').scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`security-entries-${language}.png`) });

    await page.getByTestId('security-anti-phishing').click();
    await expect(page.getByTestId('anti-phishing-current')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`anti-phishing-empty-${language}.png`) });
    await page.getByTestId('anti-phishing-input').fill('a<b');
    await page.getByTestId('anti-phishing-save').click();
    await expect(page.getByTestId('field-error-phrase')).toBeVisible();
    await page.getByTestId('anti-phishing-input').fill('Blue Kettle 42');
    await page.getByTestId('anti-phishing-save').click();
    await expect(page.getByTestId('anti-phishing-value')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`anti-phishing-set-${language}.png`), fullPage: true });

    await page.goto('/changeEmail');
    await page.getByTestId('change-email-new').fill('taken');
    await page.getByTestId('change-email-send').click();
    await expect(page.getByTestId('field-error-newEmail')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`change-email-${language}.png`), fullPage: true });
  });
}

test('@desktop the operator console shows a user’s locks (hold with its end, allowlist pending-off), read only', async ({
  browser,
  playwright,
  baseURL,
}, testInfo) => {
  // This spec's own operator (a code works once per operator and 30 s step), a support operator.
  test.slow();
  await ensureOperator('e2e_ops_locks', 'support');
  const account = newAccount('lock');
  const api = await playwright.request.newContext({ baseURL });
  await registerByApi(api, account);
  const signedIn = await api.post('/api/auth/login', {
    data: { identifier: account.username, password: account.password },
  });
  expect(signedIn.status()).toBe(200);
  const moved = `moved_${account.username.toLowerCase()}@example.com`;
  const since = Date.now();
  expect((await api.post('/api/me/security/email/code', { data: { newEmail: moved } })).status()).toBe(202);
  const code = await readCode(api, moved, since);
  expect((await api.post('/api/me/security/email', { data: { newEmail: moved, code } })).status()).toBe(200);
  expect((await api.put('/api/me/security/allowlist', { data: { on: true } })).status()).toBe(200);
  expect((await api.put('/api/me/security/allowlist', { data: { on: false } })).status()).toBe(200);
  await api.dispose();

  const ops = await browser.newContext();
  const page = await ops.newPage();
  await page.goto(OPS_CONSOLE_URL);
  await signInOperatorPage(page, 'e2e_ops_locks');
  await page.getByTestId('ops-locks-user').fill(moved);
  await page.getByTestId('ops-locks-show').click();
  await expect(page.getByTestId('ops-lock-hold')).toContainText('e-mail address changed');
  await expect(page.getByTestId('ops-lock-allowlist')).toContainText('pending');
  // Nothing on the panel lifts a lock.
  await expect(page.getByTestId('ops-user-locks').getByRole('button')).toHaveCount(0);
  await page.getByTestId('ops-locks-lookup').scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('ops-user-locks.png') });
  await ops.close();
});
