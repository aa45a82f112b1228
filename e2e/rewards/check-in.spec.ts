import { createPublicClient, type Hex, http, parseAbi, parseEther } from 'viem';
import { expect, navigateInApp, test } from '../support/fixtures.ts';
import { readChains, signedInPage } from '../wallet/wallet-helpers.ts';
import { fundNative, installRecordingWallet, mineAfterSent, violations } from './wallet-mock.ts';

test.describe.configure({ timeout: 120_000 });

interface SignStatus {
  memberTag: Hex;
  contracts: { chainId: number; address: Hex }[];
  todayState: string;
  records: { txHash: string; state: string }[];
}

async function signStatus(page: import('@playwright/test').Page): Promise<SignStatus> {
  return (await (await page.request.get('/api/rewards/sign')).json()) as SignStatus;
}

/** Connects the mock wallet from the list (a wallet that already authorised the site reconnects by itself). */
async function connect(page: import('@playwright/test').Page) {
  const option = page.getByTestId('wallet-option').filter({ hasText: 'Mock Wallet' });
  await expect(option.or(page.getByTestId('wallet-connected'))).toBeVisible();
  if (await option.isVisible()) await option.getByRole('button').click();
  await expect(page.getByTestId('wallet-connected')).toBeVisible();
}

test('connect a wallet, check in on chain, see the confirmed record; a second check-in the same day is refused', async ({
  browser,
}) => {
  const ethereum = readChains()?.ethereum;
  test.skip(!ethereum, 'no local chains on this server');
  if (!ethereum) return;
  const { page, context } = await signedInPage(browser, 'sign');
  // The wallet starts on another network (mainnet): the app offers one tap to switch.
  const wallet = await installRecordingWallet(page, ethereum, undefined, 1);
  await fundNative(ethereum.rpcUrl, wallet.address, parseEther('1'));
  await page.goto('/sign');
  // Not connected yet: the wallet list, the announced wallet by name, the curated ones with an install link.
  await expect(page.getByTestId('wallet-list')).toContainText('MetaMask');
  await connect(page);
  await expect(page.getByTestId('wallet-address')).toHaveText(
    `${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}`,
  );
  await expect(page.getByTestId('wallet-switch')).toHaveText('切换到 Ethereum');
  await expect(page.getByTestId('check-in')).toHaveCount(0);
  await page.getByTestId('wallet-switch').click();
  await expect(page.getByTestId('wallet-switch')).toHaveCount(0);
  await expect(page.getByTestId('wallet-balance')).toHaveText('1 ETH');

  const { confirmations } = (await (
    await page.request.get('/api/wallet/deposit-address?coin=ETH&network=ethereum')
  ).json()) as { confirmations: number };
  await page.getByTestId('check-in').click();
  // "Signing…" until the server has the record at its confirmations (mined at once once the wallet's
  // transaction is in: the chain mines a block a second); then checked in.
  await mineAfterSent(wallet, ethereum.rpcUrl, confirmations);
  await expect(page.getByTestId('check-in')).toHaveText(/今天已签到/, { timeout: 30_000 });
  const status = await signStatus(page);
  expect(status.todayState).toBe('confirmed');
  expect(status.records).toHaveLength(1);
  expect(status.records[0]?.state).toBe('confirmed');
  await expect(page.getByTestId('sign-record')).toHaveCount(1);
  await expect(page.getByTestId('streak-days')).toHaveText('1');
  await expect(page.getByTestId('streak-day').last()).toHaveAttribute('data-signed', 'true');
  await expect(page.getByTestId('next-check-in')).toContainText('下次签到还有');

  // The same day again: the button is closed, and the contract itself refuses the wallet.
  await expect(page.getByTestId('check-in')).toBeDisabled();
  const contract = status.contracts.find((c) => c.chainId === ethereum.chainId)?.address as Hex;
  const client = createPublicClient({ transport: http(ethereum.rpcUrl) });
  await expect(
    client.simulateContract({
      address: contract,
      abi: parseAbi(['function checkIn(bytes32 memberTag)', 'error AlreadyCheckedIn(uint64 day)']),
      functionName: 'checkIn',
      args: [status.memberTag],
      account: wallet.address,
    }),
  ).rejects.toThrow(/AlreadyCheckedIn/);

  // One wallet connection for the whole app: the wallet remote's deposit screen has it at once, without
  // asking the wallet again (no new reconnect, no second account request).
  const asked = wallet.requests.filter((r) => r.method === 'eth_accounts' || r.method === 'eth_requestAccounts').length;
  await navigateInApp(page, '/coinTopup/deposit?coin=ETH&network=ethereum');
  await page.getByTestId('wallet-deposit-open').click();
  await expect(page.getByTestId('wallet-deposit-form')).toBeVisible();
  await expect(page.getByTestId('wallet-address')).toHaveText(
    `${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}`,
  );
  expect(wallet.requests.filter((r) => r.method === 'eth_accounts' || r.method === 'eth_requestAccounts').length).toBe(
    asked,
  );

  // Every wallet request was a read, the connection, or the one checkIn(memberTag) call.
  expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(1);
  expect(violations(wallet.requests, { checkIn: { contract, memberTag: status.memberTag } })).toEqual([]);
  await context.close();
});

test('a wallet with no gas gets the fee error before any prompt; a refused prompt changes nothing', async ({
  browser,
}) => {
  const ethereum = readChains()?.ethereum;
  test.skip(!ethereum, 'no local chains on this server');
  if (!ethereum) return;
  const { page, context } = await signedInPage(browser, 'nogas');
  const wallet = await installRecordingWallet(page, ethereum);
  await page.goto('/sign');
  await connect(page);
  await page.getByTestId('check-in').click();
  await expect(page.getByText('ETH 能量费不足，请切换钱包')).toBeVisible();
  expect(wallet.requests.some((r) => r.method === 'eth_sendTransaction')).toBe(false);

  // Now with gas, but the user refuses in the wallet.
  await fundNative(ethereum.rpcUrl, wallet.address, parseEther('1'));
  wallet.rejectNext('eth_sendTransaction');
  await page.getByTestId('check-in').click();
  await expect(page.getByText('你在钱包中取消了操作，没有任何改变')).toBeVisible();
  await expect(page.getByTestId('check-in')).toBeEnabled();
  const status = await signStatus(page);
  expect(status.todayState).toBe('none');
  const contract = status.contracts.find((c) => c.chainId === ethereum.chainId)?.address as Hex;
  expect(violations(wallet.requests, { checkIn: { contract, memberTag: status.memberTag } })).toEqual([]);
  await context.close();
});
