import { carryRegisteredDevice, newAccount, registerByApi } from '../account/account-helpers.ts';
import { fundNative, installRecordingWallet } from '../rewards/wallet-mock.ts';
import { expect, test } from '../support/fixtures.ts';
import { readChains, signedInPage } from './wallet-helpers.ts';

/**
 * Issue 40, items 1 and 2: a deposit address is the signed-in user's, never one cached for another
 * account on the same tab; a token without a configured contract is never deposited as the native coin.
 */
test.describe.configure({ timeout: 120_000 });

const DEPOSIT_URL = '/coinTopup/deposit?coin=USDT&network=ethereum';

test("a session that ends on the deposit screen: the next account signed in on the tab sees its own address, not the last one's", async ({
  browser,
}) => {
  const { page, context } = await signedInPage(browser, 'dswa');
  const other = await browser.newContext();
  const accountB = newAccount('dswb');
  await registerByApi(other.request, accountB);
  await other.close();

  await page.goto(DEPOSIT_URL);
  const addressA = (await page.getByTestId('deposit-address').textContent()) ?? '';
  expect(addressA).toMatch(/^0x[0-9a-fA-F]{40}$/);

  // A's session ends on the server (expiry, a password reset elsewhere); the tab learns it from a 401.
  expect((await page.request.post('/api/auth/logout')).status()).toBe(204);
  await page.getByTestId('deposit-transferred').click();
  await expect(page).toHaveURL(/\/login$/);

  // B signs in on the same tab (no page load: the app's memory is what is tested) and is returned.
  await carryRegisteredDevice(context, accountB.username);
  await page.getByTestId('login-identifier').fill(accountB.username);
  await page.getByTestId('login-password').fill(accountB.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/coinTopup\/deposit\?coin=USDT&network=ethereum$/);

  const mine = await page.request.get('/api/wallet/deposit-address?coin=USDT&network=ethereum');
  const addressB = ((await mine.json()) as { address: string }).address;
  expect(addressB).not.toBe(addressA);
  await expect(page.getByTestId('deposit-address')).toHaveText(addressB);
  await context.close();
});

test('a token whose contract the server does not know is never offered as a wallet deposit of the native coin', async ({
  browser,
}) => {
  const ethereum = readChains()?.ethereum;
  test.skip(!ethereum, 'no local chains on this server');
  if (!ethereum) return;
  const { page, context } = await signedInPage(browser, 'dstk');
  // A server missing ETHEREUM_TOKEN_USDT (an older one still says depositEnabled): the contract is null.
  await page.route('**/api/catalogue', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as {
      pairs: { coin: string; network: string; tokenContract: string | null; depositEnabled: boolean }[];
    };
    for (const pair of body.pairs) {
      if (pair.coin === 'USDT' && pair.network === 'ethereum') {
        pair.tokenContract = null;
        pair.depositEnabled = true;
      }
    }
    await route.fulfill({ response, json: body });
  });
  const wallet = await installRecordingWallet(page, ethereum);
  await fundNative(ethereum.rpcUrl, wallet.address, 10n ** 18n);

  await page.goto(DEPOSIT_URL);
  await expect(page.getByTestId('deposit-address')).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await expect(page.getByTestId('wallet-deposit-unavailable')).toBeVisible();
  await expect(page.getByTestId('wallet-deposit-open')).toHaveCount(0);
  expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toEqual([]);
  await context.close();
});
