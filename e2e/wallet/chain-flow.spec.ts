import { createPublicClient, erc20Abi, http, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { carryRegisteredDevice, newAccount, readCode, registerByApi } from '../account/account-helpers.ts';
import { E2E_DEV_URL } from '../support/e2e-env.ts';
import { expect, test } from '../support/fixtures.ts';
import { faucet, mineBlocks, readChains, signedInPage } from './wallet-helpers.ts';

const FUND_PASSWORD = '246810';

test.describe.configure({ timeout: 240_000 });

test('deposit from the faucet (confirming, then successful), withdraw on chain, send to another user, all in history', async ({
  browser,
}) => {
  const chains = readChains();
  test.skip(!chains?.bsc, 'no local chains (chains.json) on this server');
  const bsc = chains?.bsc;
  if (!bsc) return;
  const { account, context, page } = await signedInPage(browser, 'chain');
  const recipient = newAccount('payee');
  // Its own cookie jar: registering signs in, which must not replace the sender's session.
  const registering = await browser.newContext();
  await registerByApi(registering.request, recipient);
  await registering.close();

  // Deposit: USDT on the BSC-like chain needs 64 confirmations, so "confirming" lasts until blocks are mined.
  await page.goto('/coinTopup/deposit?coin=USDT&network=bsc');
  const addressText = page.getByTestId('deposit-address');
  await expect(addressText).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await expect(page.getByTestId('qr-code')).toBeVisible();
  await expect(page.getByTestId('deposit-confirmations')).toHaveText('64');
  const depositAddress = (await addressText.textContent()) ?? '';
  await faucet(depositAddress, '50', 'USDT', 'bsc');

  // The watcher records it; "I have transferred" then finds it and opens its details.
  await expect
    .poll(
      async () => {
        const history = await page.request.get('/api/wallet/history?type=deposit');
        return ((await history.json()) as { items: unknown[] }).items.length;
      },
      { timeout: 60_000, message: 'the deposit is seen by the watcher' },
    )
    .toBe(1);
  await page.getByTestId('deposit-transferred').click();
  await expect(page).toHaveURL(/\/coinTopup\/topup\?id=/);
  await expect(page.getByTestId('topup-state')).toHaveAttribute('data-state', 'confirming');
  await expect(page.getByTestId('topup-amount')).toHaveText('50 USDT');
  const firstCount = Number((await page.getByTestId('topup-confirmations').textContent())?.match(/(\d+)\//)?.[1]);
  await mineBlocks(bsc.rpcUrl, 10);
  await expect
    .poll(async () => Number((await page.getByTestId('topup-confirmations').textContent())?.match(/(\d+)\//)?.[1]))
    .toBeGreaterThan(firstCount);
  await mineBlocks(bsc.rpcUrl, 70);
  await expect(page.getByTestId('topup-state')).toHaveAttribute('data-state', 'successful', { timeout: 30_000 });
  await expect(page.getByTestId('topup-confirmations')).toHaveText('确认数 64/64');
  await page.goto('/coinTopup');
  await expect(page.getByTestId('balance-USDT-available')).toHaveText('50');

  // Withdraw 10 USDT to an outside address: 0.5 fee, 9.5 arrive on chain.
  const external = privateKeyToAddress(generatePrivateKey());
  await page.goto('/coinTopup/send?coin=USDT&network=bsc');
  await page.getByTestId('send-address').locator('textarea').fill(external);
  await page.getByTestId('send-amount').fill('10');
  await expect(page.getByTestId('send-fee')).toHaveText('0.5 USDT');
  await expect(page.getByTestId('send-arrival')).toHaveText('9.5 USDT');
  await page.getByTestId('send-next').click();
  await expect(page).toHaveURL(/\/coinTopup\/send\/affirm$/);
  await expect(page.getByTestId('affirm-target')).toHaveText(external);
  await expect(page.getByTestId('affirm-arrival')).toHaveText('9.5 USDT');
  await page.getByTestId('affirm-confirm').click();
  await expect(page).toHaveURL(/\/coinTopup\/verification\/email$/);
  let since = Date.now();
  await page.getByTestId('verify-send-code').click();
  await page
    .getByTestId('verify-email-code')
    .locator('input')
    .fill(await readCode(page.request, account.email, since));
  await page.getByTestId('verify-email-submit').click();
  await expect(page).toHaveURL(/\/coinTopup\/withdrawDeposit\?type=withdrawal&id=/);
  await expect(page.getByTestId('withdraw-state')).toHaveAttribute('data-state', 'transfer_successful', {
    timeout: 90_000,
  });
  const txHash = (await page.getByTestId('withdraw-tx').textContent()) ?? '';
  expect(txHash).toMatch(/^0x[0-9a-f]{64}$/);
  const client = createPublicClient({ transport: http(bsc.rpcUrl) });
  const receipt = await client.getTransactionReceipt({ hash: txHash as `0x${string}` });
  expect(receipt.status).toBe('success');
  const token = bsc.tokens.USDT;
  if (!token) throw new Error('no USDT on the bsc chain');
  const received = await client.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [external],
  });
  expect(received).toBe(parseUnits('9.5', 18));

  // Set a fund password, then send 5 USDT to the other user by e-mail: no fee, instant.
  await page.goto('/coinTopup/verification/capitalPwd');
  since = Date.now();
  await page.getByTestId('capital-send-code').click();
  await page
    .getByTestId('capital-code')
    .locator('input')
    .fill(await readCode(page.request, account.email, since));
  await page.getByTestId('capital-fund-password').fill(FUND_PASSWORD);
  await page.getByTestId('capital-confirm').fill(FUND_PASSWORD);
  await page.getByTestId('capital-submit').click();
  await expect(page.getByTestId('wallet-capital-pwd')).toHaveCount(0);

  await page.goto('/coinTopup/send?mode=send&coin=USDT');
  await page.getByTestId('send-address').locator('textarea').fill(recipient.email);
  await page.getByTestId('send-amount').fill('5');
  // A transfer: the recipient is checked before any code, with no network picker and no network fee.
  await expect(page.getByTestId('send-recipient-status')).toContainText('***@example.com');
  await expect(page.getByTestId('send-network')).toHaveCount(0);
  await expect(page.getByTestId('send-fee')).toHaveCount(0);
  await expect(page.getByTestId('send-transfer-free')).toBeVisible();
  await page.getByTestId('send-next').click();
  await page.getByTestId('affirm-confirm').click();
  await expect(page).toHaveURL(/\/coinTopup\/verification\/pwd$/);
  await page.getByTestId('verify-fund-password').fill('135790');
  await page.getByTestId('verify-pwd-submit').click();
  await expect(page.getByTestId('verify-pwd-error')).toContainText('资金密码错误');
  await page.getByTestId('verify-fund-password').fill(FUND_PASSWORD);
  await page.getByTestId('verify-pwd-submit').click();
  await expect(page).toHaveURL(/\/coinTopup\/verification\/email$/);
  // A transfer's code has its own purpose (`transfer`), so the withdrawal's code sent just before does
  // not hold it back (the 60 s resend gap is per address and purpose).
  since = Date.now();
  await page.getByTestId('verify-send-code').click();
  await page
    .getByTestId('verify-email-code')
    .locator('input')
    .fill(await readCode(page.request, account.email, since));
  const mailbox = (await (await page.request.get(`${E2E_DEV_URL}/dev/mailbox.json`)).json()) as {
    messages: { to: string; text: string }[];
  };
  expect(mailbox.messages.find((m) => m.to === account.email)?.text).toContain('转账给其他用户');
  await page.getByTestId('verify-email-submit').click();
  await expect(page).toHaveURL(/\/coinTopup\/withdrawDeposit\?type=send&id=/);
  await expect(page.getByTestId('withdraw-amount')).toHaveText('5 USDT');

  // Balances: 50 - 10 - 5 here, 5 there.
  await page.goto('/coinTopup');
  await expect(page.getByTestId('balance-USDT-available')).toHaveText('35');
  const payee = await browser.newContext();
  await carryRegisteredDevice(payee, recipient.email);
  const login = await payee.request.post('/api/auth/login', {
    data: { identifier: recipient.email, password: recipient.password },
  });
  expect(login.ok()).toBe(true);
  const balances = (await (await payee.request.get('/api/me/balances')).json()) as {
    asset: string;
    availableMinor: string;
  }[];
  expect(balances.find((b) => b.asset === 'USDT')?.availableMinor).toBe('5000000');
  await payee.close();

  // One history: the send, the withdrawal and the deposit, newest first.
  await page.goto('/coinTopup/history');
  const items = page.getByTestId('history-item');
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toHaveAttribute('data-type', 'send');
  await expect(items.nth(1)).toHaveAttribute('data-type', 'withdrawal');
  await expect(items.nth(2)).toHaveAttribute('data-type', 'deposit');
  await expect(items.nth(1).getByTestId('history-state')).toHaveAttribute('data-state', 'transfer_successful');
  await page.getByTestId('history-filter-withdrawal').click();
  await expect(items).toHaveCount(1);
  await items.first().click();
  await expect(page.getByTestId('withdraw-tx')).toHaveText(txHash);
  await context.close();
});

test('a deposit below the minimum is shown with its reason and not credited', async ({ browser }) => {
  const chains = readChains();
  test.skip(!chains?.bsc, 'no local chains (chains.json) on this server');
  const bsc = chains?.bsc;
  if (!bsc) return;
  const { context, page } = await signedInPage(browser, 'dust');
  const address = await page.request.get('/api/wallet/deposit-address?coin=USDT&network=bsc');
  const { address: depositAddress } = (await address.json()) as { address: string };
  // The minimum on this network is 0.001 USDT.
  await faucet(depositAddress, '0.0005', 'USDT', 'bsc');
  let depositId = '';
  await expect
    .poll(
      async () => {
        const history = await page.request.get('/api/wallet/history?type=deposit');
        depositId = ((await history.json()) as { items: { id: string }[] }).items[0]?.id ?? '';
        return depositId;
      },
      { timeout: 60_000, message: 'the deposit is seen by the watcher' },
    )
    .not.toBe('');
  await mineBlocks(bsc.rpcUrl, 70);
  await page.goto(`/coinTopup/topup?id=${depositId}`);
  await expect(page.getByTestId('topup-state')).toHaveAttribute('data-state', 'failed', { timeout: 30_000 });
  await expect(page.getByTestId('topup-reason')).toHaveText('低于最小充值金额，未入账');
  await page.goto('/coinTopup');
  await expect(page.getByTestId('balance-USDT-available')).toHaveText('0');
  await context.close();
});

test('send to another user by their deposit address', async ({ browser }) => {
  const chains = readChains();
  test.skip(!chains?.bsc, 'no local chains (chains.json) on this server');
  const bsc = chains?.bsc;
  if (!bsc) return;
  const { account, context, page } = await signedInPage(browser, 'byaddr');
  const payee = await browser.newContext();
  const recipient = newAccount('addrpayee');
  await registerByApi(payee.request, recipient);
  await payee.request.post('/api/auth/login', { data: { identifier: recipient.email, password: recipient.password } });
  const payeeAddress = (
    (await (await payee.request.get('/api/wallet/deposit-address?coin=USDT&network=bsc')).json()) as {
      address: string;
    }
  ).address;

  // Fund the sender: 3 USDT, credited after its confirmations.
  const own = (
    (await (await page.request.get('/api/wallet/deposit-address?coin=USDT&network=bsc')).json()) as { address: string }
  ).address;
  await faucet(own, '3', 'USDT', 'bsc');
  await expect
    .poll(
      async () => {
        const history = await page.request.get('/api/wallet/history?type=deposit');
        return ((await history.json()) as { items: unknown[] }).items.length;
      },
      { timeout: 60_000 },
    )
    .toBe(1);
  await mineBlocks(bsc.rpcUrl, 70);
  await page.goto('/coinTopup');
  await expect(page.getByTestId('balance-USDT-available')).toHaveText('3', { timeout: 30_000 });

  await page.goto('/coinTopup/send?mode=send&coin=USDT&network=bsc');
  await page.getByTestId('send-address').locator('textarea').fill(payeeAddress);
  await expect(page.getByTestId('send-network')).toHaveCount(0);
  await expect(page.getByTestId('send-recipient-status')).toContainText(payeeAddress);
  await page.getByTestId('send-amount').fill('1.25');
  await page.getByTestId('send-next').click();
  await expect(page.getByTestId('affirm-target')).toHaveText(payeeAddress);
  await page.getByTestId('affirm-confirm').click();
  const since = Date.now();
  await page.getByTestId('verify-send-code').click();
  await page
    .getByTestId('verify-email-code')
    .locator('input')
    .fill(await readCode(page.request, account.email, since));
  await page.getByTestId('verify-email-submit').click();
  await expect(page).toHaveURL(/\/coinTopup\/withdrawDeposit\?type=send&id=/);
  await expect(page.getByTestId('withdraw-amount')).toHaveText('1.25 USDT');

  const balances = (await (await payee.request.get('/api/me/balances')).json()) as {
    asset: string;
    availableMinor: string;
  }[];
  expect(balances.find((b) => b.asset === 'USDT')?.availableMinor).toBe('1250000');
  // The recipient sees it in their history as received.
  const history = (await (await payee.request.get('/api/wallet/history?type=send')).json()) as {
    items: { direction: string; amountMinor: string }[];
  };
  expect(history.items).toMatchObject([{ direction: 'in', amountMinor: '1250000' }]);
  await payee.close();
  await context.close();
});
