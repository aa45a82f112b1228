import { expect, navigateInApp, test } from '../support/fixtures.ts';
import { faucet, mineBlocks, readChains, signedInPage } from './wallet-helpers.ts';

test('a network nobody watches shows as unavailable with its reason, never with an address', async ({ browser }) => {
  const { context, page } = await signedInPage(browser, 'depnet');
  await page.goto('/coinTopup/deposit?coin=BTC');
  await expect(page.getByTestId('deposit-unavailable')).toContainText('Bitcoin');
  await expect(page.getByTestId('deposit-address')).toHaveCount(0);

  // ETH on the running local chain: an address, labelled by its network only.
  await page.goto('/coinTopup/deposit?coin=ETH');
  await expect(page.getByTestId('deposit-address')).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await expect(page.getByTestId('deposit-network')).toContainText('Ethereum');
  await expect(page.getByTestId('deposit-network')).not.toContainText('ERC-20');

  // "I have transferred" before anything arrived: explained under the button, the QR code stays in view.
  await page.getByTestId('deposit-transferred').click();
  await expect(page.getByTestId('deposit-transferred-noted')).toBeVisible();
  await expect(page.getByTestId('deposit-address-card')).toBeInViewport();
  await context.close();
});

test('balances and history follow a new deposit without a reload', async ({ browser }) => {
  const { context, page } = await signedInPage(browser, 'live');
  const response = await page.request.get('/api/wallet/deposit-address?coin=USDT&network=ethereum');
  const { address } = (await response.json()) as { address: string };
  await page.goto('/coinTopup/history');
  await expect(page.getByTestId('wallet-history')).toBeVisible();
  await page.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });
  await faucet(address, '7', 'USDT', 'ethereum');
  const chains = readChains();
  if (chains?.ethereum) await mineBlocks(chains.ethereum.rpcUrl, 8);
  await expect(page.getByTestId('history-amount').first()).toContainText('7', { timeout: 45_000 });
  await navigateInApp(page, '/coinTopup');
  await expect(page.getByTestId('balance-USDT-available')).toHaveText('7', { timeout: 45_000 });
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await context.close();
});
