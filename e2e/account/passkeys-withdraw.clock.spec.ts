import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { E2E_DEV_URL } from '../support/e2e-env.ts';
import { expect, test } from '../support/fixtures.ts';
import { faucet, mineBlocks, readChains } from '../wallet/wallet-helpers.ts';
import { newAccount, readCode, registerByApi } from './account-helpers.ts';
import { LOCAL_ORIGIN, virtualAuthenticator } from './passkey-helpers.ts';
import { signInByApi } from './sign-in-by-api.ts';

/**
 * Issue 31: a withdrawal confirmed with a passkey (step-up, ASVS 7.5.3) in Chromium with a CDP virtual
 * authenticator. Adding the passkey holds outflows 24 h, so this runs on the development clock
 * (POST /dev/clock), in the clock project after every other spec.
 */
test.describe.configure({ timeout: 300_000 });

test('withdraw on chain with a passkey as the second factor', async ({ browser, playwright }) => {
  const bsc = readChains()?.bsc;
  test.skip(!bsc, 'no local chains on this server');
  if (!bsc) return;
  const account = newAccount('pkwd');
  const api = await playwright.request.newContext({ baseURL: LOCAL_ORIGIN });
  await registerByApi(api, account);
  await api.dispose();
  const context = await browser.newContext({ baseURL: LOCAL_ORIGIN, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await virtualAuthenticator(context, page);
  // Signed in through the API: this spec tests the withdrawal's passkey step, not the sign-in screen.
  await signInByApi(context, account.username, account.password);

  // 50 USDT in from the faucet, 64 confirmations mined at once.
  await page.goto('/coinTopup/deposit?coin=USDT&network=bsc');
  const addressText = page.getByTestId('deposit-address');
  await expect(addressText).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await faucet((await addressText.textContent()) ?? '', '50', 'USDT', 'bsc');
  await expect
    .poll(
      async () =>
        ((await (await page.request.get('/api/wallet/history?type=deposit')).json()) as { items: unknown[] }).items
          .length,
      {
        timeout: 60_000,
      },
    )
    .toBe(1);
  await mineBlocks(bsc.rpcUrl, 80);

  // A passkey, then a day on the clock: the 24 h hold its addition started is over.
  await page.goto('/securitySettings');
  await page.getByTestId('passkey-name-input').fill('Withdraw key');
  await page.getByTestId('passkey-add').click();
  await page.getByTestId('passkey-codes-done').click();
  await expect(page.getByTestId('passkey-name')).toHaveText('Withdraw key');
  const moved = await page.request.post(`${E2E_DEV_URL}/dev/clock`, { data: { advanceSeconds: 86_400 + 120 } });
  expect(moved.status(), await moved.text()).toBe(200);
  // The session idled out meanwhile: sign in again, with the passkey.
  await page.goto('/login');
  await page
    .getByTestId('login-passkey')
    .click({ timeout: 5_000 })
    .catch(() => undefined);
  await expect(page).not.toHaveURL(/\/login$/);
  await expect
    .poll(
      async () => {
        const rows = (await (await page.request.get('/api/me/balances')).json()) as {
          asset: string;
          availableMinor: string;
        }[];
        return rows.find((b) => b.asset === 'USDT')?.availableMinor ?? '0';
      },
      { timeout: 60_000 },
    )
    .not.toBe('0');

  await page.goto('/coinTopup/send?coin=USDT&network=bsc');
  await page.getByTestId('send-address').locator('textarea').fill(privateKeyToAddress(generatePrivateKey()));
  await page.getByTestId('send-amount').fill('10');
  await page.getByTestId('send-next').click();
  await page.getByTestId('affirm-confirm').click();
  await expect(page).toHaveURL(/\/coinTopup\/verification\/email$/);
  const since = Date.now();
  await page.getByTestId('verify-send-code').click();
  await page
    .getByTestId('verify-email-code')
    .locator('input')
    .fill(await readCode(page.request, account.email, since));
  await page.getByTestId('verify-email-submit').click();
  // The e-mail code is a notice, not a factor: the server asks the passkey, the screen offers it.
  await expect(page.getByTestId('verify-passkey')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('withdraw-passkey-390.png'), fullPage: true });
  await page.getByTestId('verify-passkey').click();
  await expect(page).toHaveURL(/\/coinTopup\/withdrawDeposit\?type=withdrawal&id=/, { timeout: 30_000 });
  await context.close();
});
