import { type Hex, parseEther, parseUnits } from 'viem';
import { expect, test } from '../support/fixtures.ts';
import { faucet, mineBlocks, readChains, signedInPage } from '../wallet/wallet-helpers.ts';
import { fundNative, installRecordingWallet, violations } from './wallet-mock.ts';

test.describe.configure({ timeout: 180_000 });

async function openWalletDeposit(page: import('@playwright/test').Page, coin: string) {
  await page.goto(`/coinTopup/deposit?coin=${coin}&network=ethereum`);
  const address = (await page.getByTestId('deposit-address').textContent()) ?? '';
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  await page.getByTestId('wallet-deposit-open').click();
  const option = page.getByTestId('wallet-option').filter({ hasText: 'Mock Wallet' });
  await expect(option.or(page.getByTestId('wallet-deposit-form'))).toBeVisible();
  if (await option.isVisible()) await option.getByRole('button').click();
  await expect(page.getByTestId('wallet-deposit-form')).toBeVisible();
  return address as Hex;
}

test('deposit ETH and USDT from the connected wallet: one transaction each, to my own address, credited live', async ({
  browser,
}) => {
  const ethereum = readChains()?.ethereum;
  test.skip(!ethereum, 'no local chains on this server');
  if (!ethereum) return;
  const { page, context } = await signedInPage(browser, 'wdep');
  const wallet = await installRecordingWallet(page, ethereum);
  await fundNative(ethereum.rpcUrl, wallet.address, parseEther('3'));
  await faucet(wallet.address, '50', 'USDT', 'ethereum');
  const usdt = ethereum.tokens.USDT as Hex;

  // ETH: the amount is checked against the wallet's balance before any prompt.
  const depositAddress = await openWalletDeposit(page, 'ETH');
  await expect(page.getByTestId('wallet-coin-balance')).toHaveText('3 ETH');
  await page.getByTestId('wallet-deposit-amount').fill('5');
  await expect(page.getByTestId('wallet-deposit-problem')).toHaveText('超过钱包余额');
  await expect(page.getByTestId('wallet-deposit-send')).toBeDisabled();
  await page.getByTestId('wallet-deposit-amount').fill('0.5');
  await expect(page.getByTestId('wallet-deposit-preview')).toContainText('0.5 ETH');
  await expect(page.getByTestId('wallet-deposit-preview')).toContainText(depositAddress.slice(0, 6));
  await page.getByTestId('wallet-deposit-send').click();
  await expect(page).toHaveURL(/\/coinTopup\/topup\?id=/, { timeout: 30_000 });
  await mineBlocks(ethereum.rpcUrl, 8);
  await expect(page.getByTestId('topup-state')).toHaveAttribute('data-state', 'successful', { timeout: 30_000 });
  await expect(page.getByTestId('topup-amount')).toHaveText('0.5 ETH');

  // USDT: the token's transfer to the same address.
  await openWalletDeposit(page, 'USDT');
  await expect(page.getByTestId('wallet-coin-balance')).toHaveText('50 USDT');
  await page.getByTestId('wallet-deposit-amount').fill('20');
  await page.getByTestId('wallet-deposit-send').click();
  await expect(page).toHaveURL(/\/coinTopup\/topup\?id=/, { timeout: 30_000 });
  await mineBlocks(ethereum.rpcUrl, 8);
  await expect(page.getByTestId('topup-state')).toHaveAttribute('data-state', 'successful', { timeout: 30_000 });
  await expect(page.getByTestId('topup-amount')).toHaveText('20 USDT');

  expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(2);
  expect(
    violations(wallet.requests, {
      deposits: {
        depositAddress,
        native: [parseEther('0.5')],
        tokens: [{ token: usdt, amount: parseUnits('20', 6) }],
      },
    }),
  ).toEqual([]);
  await context.close();
});

test('a refused deposit prompt changes nothing and says so', async ({ browser }) => {
  const ethereum = readChains()?.ethereum;
  test.skip(!ethereum, 'no local chains on this server');
  if (!ethereum) return;
  const { page, context } = await signedInPage(browser, 'wrej');
  const wallet = await installRecordingWallet(page, ethereum);
  await fundNative(ethereum.rpcUrl, wallet.address, parseEther('1'));
  await openWalletDeposit(page, 'ETH');
  wallet.rejectNext('eth_sendTransaction');
  await page.getByTestId('wallet-deposit-amount').fill('0.2');
  await page.getByTestId('wallet-deposit-send').click();
  await expect(page.getByText('你在钱包中取消了操作，没有任何改变')).toBeVisible();
  await expect(page).toHaveURL(/\/coinTopup\/deposit/);
  await expect(page.getByTestId('wallet-deposit-send')).toBeEnabled();
  const history = await page.request.get('/api/wallet/history?type=deposit');
  expect(((await history.json()) as { items: unknown[] }).items).toEqual([]);
  await context.close();
});
