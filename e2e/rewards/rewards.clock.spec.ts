import { type APIRequestContext, request as newRequest, type Page } from '@playwright/test';
import { createWalletClient, defineChain, type Hex, http, parseAbi, parseEther, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ensureOperator, operatorSignIn } from '../mail/mail-helpers.ts';
import { E2E_DEV_URL, E2E_OPS_URL } from '../support/e2e-env.ts';
import { expect, test } from '../support/fixtures.ts';
import { mineBlocks, readChains, signedInPage } from '../wallet/wallet-helpers.ts';
import { fundNative, installRecordingWallet, mineAfterSent, violations } from './wallet-mock.ts';

/**
 * Rewards over several days, on the development clock (DEV_CLOCK): POST /dev/clock moves the server's
 * time and the local chains' a day forward. Runs in its own project after every other spec.
 */
test.describe.configure({ timeout: 240_000 });

const DAY_S = 86_400;

async function advanceDay(request: APIRequestContext): Promise<void> {
  const moved = await request.post(`${E2E_DEV_URL}/dev/clock`, { data: { advanceSeconds: DAY_S } });
  expect(moved.status(), await moved.text()).toBe(200);
}

/** A day later the session has idled out: sign in again on the page's own cookie jar. */
async function signInAgain(page: Page, account: { username: string; password: string }): Promise<void> {
  const res = await page.request.post('/api/auth/login', {
    data: { identifier: account.username, password: account.password },
  });
  expect(res.status(), await res.text()).toBe(200);
}

async function signStatus(page: Page) {
  return (await (await page.request.get('/api/rewards/sign')).json()) as {
    memberTag: Hex;
    contracts: { chainId: number; address: Hex }[];
    todayState: string;
    streak: number;
  };
}

test('check in 7 days in a row, claim after 24 hours, deliver to the balance', async ({ browser }) => {
  const ethereum = readChains()?.ethereum;
  test.skip(!ethereum, 'no local chains on this server');
  if (!ethereum) return;
  const { page, context, account } = await signedInPage(browser, 'week');
  const wallet = await installRecordingWallet(page, ethereum);
  await fundNative(ethereum.rpcUrl, wallet.address, parseEther('1'));
  // The network's confirmations (a check-in confirms at its deposit confirmations): mined at once after each
  // check-in instead of waiting a block a second for them (6 on ethereum: ~6 s a day, in the serial clock run).
  const { confirmations } = (await (
    await page.request.get('/api/wallet/deposit-address?coin=ETH&network=ethereum')
  ).json()) as { confirmations: number };
  await page.goto('/sign');
  await expect(page.getByTestId('wallet-connected').or(page.getByTestId('wallet-option'))).toBeVisible();
  if (await page.getByTestId('wallet-option').isVisible())
    await page.getByTestId('wallet-option').getByRole('button').click();
  await page.getByTestId('check-in').click();
  await mineAfterSent(wallet, ethereum.rpcUrl, confirmations);
  await expect(page.getByTestId('check-in')).toHaveText(/今天已签到/, { timeout: 30_000 });

  // Days 2..7: the same wallet calls checkIn(memberTag) itself, a day apart.
  const status = await signStatus(page);
  const contract = status.contracts.find((c) => c.chainId === ethereum.chainId)?.address as Hex;
  const chain = defineChain({
    id: ethereum.chainId,
    name: 'Local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [ethereum.rpcUrl] } },
  });
  const client = createWalletClient({
    account: privateKeyToAccount(wallet.privateKey),
    chain,
    transport: http(ethereum.rpcUrl),
    // The local chain mines a block a second; viem's default (4 s for a chain without a block time) held each
    // day's receipt ~4 s.
    pollingInterval: 100,
  }).extend(publicActions);
  for (let day = 2; day <= 7; day++) {
    await advanceDay(page.request);
    await signInAgain(page, account);
    const hash = await client.writeContract({
      address: contract,
      abi: parseAbi(['function checkIn(bytes32 memberTag)']),
      functionName: 'checkIn',
      args: [status.memberTag],
    });
    await client.waitForTransactionReceipt({ hash });
    await mineBlocks(ethereum.rpcUrl, confirmations);
    await expect.poll(async () => (await signStatus(page)).todayState, { timeout: 30_000 }).toBe('confirmed');
  }
  expect((await signStatus(page)).streak).toBe(7);

  // Days 1..6 are over 24 hours old: claim them from the connected wallet, then deliver.
  await page.goto('/sign');
  await expect(page.getByTestId('wallet-connected')).toBeVisible();
  await expect(page.getByTestId('streak-days')).toHaveText('7');
  await expect(page.getByTestId('claimable')).toHaveText('1.4 USDT');
  await page.getByTestId('claim').click();
  await expect(page.getByText('已领取 1.4 USDT')).toBeVisible();
  await expect(page.getByTestId('claimed-pending')).toHaveText('1.4 USDT');
  await page.getByTestId('deliver').click();
  await expect(page.getByText('已转入余额 1.4 USDT')).toBeVisible();
  await page.getByText('领取记录').click();
  await expect(page.getByTestId('claim-record')).toContainText('已发放');
  const balances = (await (await page.request.get('/api/me/balances')).json()) as {
    asset: string;
    availableMinor: string;
  }[];
  expect(balances.find((b) => b.asset === 'USDT')?.availableMinor).toBe('1400000');
  expect(violations(wallet.requests, { checkIn: { contract, memberTag: status.memberTag } })).toEqual([]);
  await context.close();
});

test('a lottery draw is verified in the browser once its seed is revealed', async ({ browser }) => {
  await ensureOperator('e2e_ops_rewards');
  // The operator API answers on the console's own origin only (issue 38 item 5).
  const ops = await newRequest.newContext({ baseURL: E2E_OPS_URL });
  await operatorSignIn(ops, 'e2e_ops_rewards');
  for (let i = 0; i < 3; i++) {
    const published = await ops.post('/api/ops/announcements', {
      data: {
        category: 'activity',
        pinned: false,
        texts: { 'zh-CN': { title: `点赞活动 ${Date.now()}-${i}`, bodyMd: '点赞抽奖' } },
      },
    });
    expect(published.status(), await published.text()).toBe(201);
  }
  await ops.dispose();
  const { page, context, account } = await signedInPage(browser, 'lottery');
  await page.goto('/likes');
  // The next server seed is committed before any client seed exists (issue 36 item 15).
  const committed = ((await page.getByTestId('next-commitment').textContent()) ?? '').match(/[0-9a-f]{64}/)?.[0];
  expect(committed).toBeTruthy();
  for (let i = 1; i <= 3; i++) {
    await page.locator('[data-testid="like"][aria-pressed="false"]').first().click();
    await expect(page.getByTestId('likes-today')).toContainText(`今天已点赞 ${i} 条`);
  }
  await expect(page.getByTestId('draws-left')).toHaveText('1');
  await page.getByTestId('draw').click();
  await expect(page.getByTestId('draw-result')).toHaveCount(1);
  await expect(page.getByTestId('draws-left')).toHaveText('0');
  await page.getByTestId('draw').click();
  await expect(page.getByText('没有更多抽奖次数了')).toBeVisible();
  // The first draw set a random client seed in the browser, paired with the commitment shown before.
  await expect(page.getByTestId('commitment')).toContainText(committed as string);

  // The next day, a new client seed reveals the server seed: the browser recomputes the draw from its inputs.
  await advanceDay(page.request);
  await signInAgain(page, account);
  await page.goto('/likes');
  await page.getByTestId('verify').click();
  await expect(page.getByTestId('verify-result')).toHaveText('服务器种子尚未公开：更换客户端种子即可公开');
  await page.getByTestId('client-seed-input').locator('input').fill('my-own-seed');
  await page.getByTestId('set-client-seed').click();
  await expect(page.getByTestId('client-seed')).toContainText('my-own-seed');
  await page.getByTestId('verify').click();
  await expect(page.getByTestId('draw-inputs')).toContainText(committed as string);
  await expect(page.getByTestId('verify-result')).toHaveAttribute('data-ok', 'true');
  await expect(page.getByTestId('verify-result')).toHaveText('1 次抽奖全部验证通过 ✓');
  await context.close();
});
