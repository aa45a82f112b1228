import { expect, test } from '../support/fixtures.ts';
import { GOOD_ETH_ADDRESS } from '../wallet/wallet-helpers.ts';
import { newAccount, registerByApi, useLanguage } from './account-helpers.ts';
import { signInByApi } from './sign-in-by-api.ts';

/**
 * Issue 31, visibility: the security overview (factors, allowlist, the lock banner with its reason
 * and end, last sign-in), the banner on the withdraw form, the login history, and an allowlisted
 * withdrawal to a freshly trusted address-book entry refused with its countdown. Screenshots at
 * 390x844 in the four languages.
 */
for (const language of ['en', 'zh-CN', 'zh-TW', 'es'] as const) {
  test(`security overview, lock banner and login history (${language})`, async ({
    page,
    playwright,
    baseURL,
  }, testInfo) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 390, height: 844 });
    const account = newAccount(`ovw${language.replace('-', '').toLowerCase()}`);
    const api = await playwright.request.newContext({ baseURL });
    await registerByApi(api, account);
    await api.dispose();
    await useLanguage(page, language);
    await signInByApi(page.context(), account.username, account.password);

    await page.goto('/securitySettings');
    await expect(page.getByTestId('overview-passkeys')).toBeVisible();
    await expect(page.getByTestId('overview-last-sign-in')).toContainText(/Safari|Chrom/);
    await expect(page.getByTestId('overview-next-add_passkey')).toBeVisible();
    await expect(page.getByTestId('security-lock-banner')).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath(`overview-${language}.png`) });

    // A password change (other sessions kept) holds outflows 24 h: the banner says why and until when.
    const changed = await page.request.post('/api/me/password', {
      data: {
        oldPassword: account.password,
        password: `${account.password}x`,
        confirmPassword: `${account.password}x`,
        endOtherSessions: false,
      },
    });
    expect(changed.status()).toBe(204);
    await page.reload();
    await expect(page.getByTestId('security-lock-banner')).toBeVisible();
    await expect(page.getByTestId('lock-hold')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`overview-locked-${language}.png`) });
    await page.goto('/coinTopup/send?coin=USDT&network=ethereum');
    await expect(page.getByTestId('send-lock-banner')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`send-locked-${language}.png`) });

    await page.goto('/securitySettings');
    await page.getByTestId('overview-logins').click();
    await expect(page).toHaveURL(/\/securityLogins$/);
    await expect(page.getByTestId('login-entry').first()).toBeVisible();
    await expect(page.getByTestId('login-result').first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`logins-${language}.png`) });
  });
}

test('an allowlisted withdrawal to a freshly trusted entry is refused, with the countdown shown', async ({
  page,
  playwright,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const account = newAccount('alwd');
  const api = await playwright.request.newContext({ baseURL });
  await registerByApi(api, account);
  await api.dispose();
  await useLanguage(page, 'en');
  await signInByApi(page.context(), account.username, account.password);
  // A fresh sign-in counts as the re-authentication the allowlist switch needs.
  expect((await page.request.put('/api/me/security/allowlist', { data: { on: true } })).status()).toBe(200);
  const saved = await page.request.post('/api/wallet/address-book', {
    data: { name: 'Cold wallet', walletType: 'personal', network: 'ethereum', address: GOOD_ETH_ADDRESS },
  });
  expect(saved.status()).toBe(201);
  const { id } = (await saved.json()) as { id: string };
  const trusted = await page.request.put(`/api/wallet/address-book/${id}/trusted`, { data: { trusted: true } });
  expect(trusted.status()).toBe(200);

  const refused = await page.request.post('/api/wallet/withdrawals', {
    data: {
      coin: 'USDT',
      network: 'ethereum',
      address: GOOD_ETH_ADDRESS,
      amountMinor: '1000000',
      idempotencyKey: `alwd-${Date.now()}`,
      emailCode: '000000',
    },
  });
  const body = (await refused.json()) as { code: string; details?: { retryAfterSeconds?: number; until?: string } };
  test.skip(body.code === 'WITHDRAW_DISABLED', 'withdrawals are not enabled on this server');
  expect(body.code).toBe('ADDRESS_ALLOWLIST_HOLD');
  expect(body.details?.retryAfterSeconds).toBeGreaterThan(86_400 - 120);
  expect(body.details?.until).toBeTruthy();

  // The entry shows its countdown in the address book, and the overview shows the allowlist on.
  await page.goto('/addressBook');
  await expect(page.getByTestId('address-book-trust')).toContainText(/usable in 2[34] h/);
  await page.screenshot({ path: testInfo.outputPath('allowlist-countdown-en.png') });
  await page.goto('/securitySettings');
  await expect(page.getByTestId('overview-allowlist')).toHaveText('On');
});
