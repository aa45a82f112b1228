import { createTestClient, http, parseAbi, publicActions, walletActions } from 'viem';
import { newAccount, registerByApi } from './account/account-helpers.ts';
import { signInByApi } from './account/sign-in-by-api.ts';
import { expect, test } from './support/fixtures.ts';
import { readChains } from './wallet/wallet-helpers.ts';

/** Anvil's first pre-funded, unlocked development account (the same on every anvil). */
const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TOKEN_ABI = parseAbi(['function mint(address to, uint256 value)']);
/** 100 USDT in the token's (and the ledger's) 6-decimal unit. */
const DEPOSIT_MINOR = 100_000_000n;
/** The server's quote lifetime (CONVERT_QUOTE_TTL_MS default). */
const QUOTE_TTL_MS = 10_000;

test('convert with an expired quote: the new rate is shown and converts only once accepted', async ({ browser }) => {
  test.setTimeout(180_000);
  const chains = readChains();
  const ethereum = chains?.ethereum;
  const usdt = ethereum?.tokens.USDT;
  test.skip(!ethereum || !usdt, 'no local ethereum chain with USDT (DATA_DIR/chains.json)');
  if (!ethereum || !usdt) return;

  const account = newAccount('conv');
  const context = await browser.newContext();
  await registerByApi(context.request, account);
  // Signed in through the API: the first screen this test opens is /convert.
  await signInByApi(context, account.username, account.password);
  const page = await context.newPage();
  // A balance the real way: test USDT minted on the local chain to the user's deposit address,
  // confirmed (6 blocks) and credited by the deposit watcher.
  const address = await page.request.get('/api/wallet/deposit-address?coin=USDT&network=ethereum');
  expect(address.ok()).toBe(true);
  const { address: depositAddress, confirmations } = (await address.json()) as {
    address: `0x${string}`;
    confirmations: number;
  };
  // Receipts polled every 100 ms: the local chain mines a block a second (viem's default polls every 4 s).
  const chain = createTestClient({ mode: 'anvil', transport: http(ethereum.rpcUrl), pollingInterval: 100 })
    .extend(publicActions)
    .extend(walletActions);
  const hash = await chain.writeContract({
    address: usdt,
    abi: TOKEN_ABI,
    functionName: 'mint',
    args: [depositAddress, DEPOSIT_MINOR],
    account: DEV_ACCOUNT,
    chain: null,
  });
  await chain.waitForTransactionReceipt({ hash });
  await chain.mine({ blocks: confirmations });
  await expect
    .poll(
      async () => {
        const balances = (await (await page.request.get('/api/me/balances')).json()) as {
          asset: string;
          availableMinor: string;
        }[];
        return balances.find((b) => b.asset === 'USDT')?.availableMinor;
      },
      { timeout: 90_000, intervals: [1000] },
    )
    .toBe(DEPOSIT_MINOR.toString());

  await page.goto('/convert?from=USDT&to=BTC');
  await expect(page.getByTestId('convert-hub')).toBeVisible();
  await expect(page.getByTestId('convert-available')).toContainText('100 USDT');
  await page.getByTestId('convert-amount').fill('25');
  await expect(page.getByTestId('convert-countdown')).toBeVisible();
  const firstRate = await page.getByTestId('convert-rate').textContent();
  expect(firstRate).toMatch(/^1 USDT ≈ 0\.\d+ BTC$/);
  await expect(page.getByTestId('convert-from-fiat')).toContainText('模拟行情');

  // Convert opens a preview first: you pay / you receive / rate / fee with the countdown; nothing converts yet.
  await page.getByTestId('convert-submit').click();
  await expect(page.getByTestId('convert-preview')).toBeVisible();
  await expect(page.getByTestId('convert-preview-pay')).toHaveText('25 USDT');
  await expect(page.getByTestId('convert-preview-receive')).toHaveText(/^0\.\d+ BTC$/);
  await expect(page.getByTestId('convert-preview-fee')).toContainText('USDT');
  await page.getByTestId('convert-preview-cancel').click();
  await expect(page.getByTestId('convert-preview')).toBeHidden();

  // Let the quote expire on the preview, then confirm: nothing converts but the "rate expired and updated" dialog.
  // The countdown counts from the quote's arrival (utils/held-quote.ts), after the server made it: at 0 the
  // server's quote has expired too. Waited for, not slept (the quote has aged since it was typed).
  await page.getByTestId('convert-submit').click();
  await expect(page.getByTestId('convert-preview-countdown')).toHaveAttribute('data-seconds', '0', {
    timeout: QUOTE_TTL_MS + 5_000,
  });
  await page.getByTestId('convert-preview-confirm').click();
  const dialog = page.getByTestId('rate-expired-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('rate-expired-title')).toHaveText('汇率已过期并已更新');
  await expect(page.getByTestId('rate-expired-rate')).toHaveText(/^1 USDT ≈ 0\.\d+ BTC$/);
  const newReceive = (await page.getByTestId('rate-expired-receive').textContent())?.replace(' BTC', '') ?? '';
  const before = (await (await page.request.get('/api/me/balances')).json()) as {
    asset: string;
    availableMinor: string;
  }[];
  expect(before.find((b) => b.asset === 'USDT')?.availableMinor).toBe(DEPOSIT_MINOR.toString());

  await page.getByTestId('rate-expired-accept').click();
  await expect(page).toHaveURL(/\/convert\/detail\?id=/);
  await expect(page.getByTestId('convert-detail-give')).toHaveText('25 USDT');
  await expect(page.getByTestId('convert-detail-receive')).toHaveText(`${newReceive} BTC`);
  const after = (await (await page.request.get('/api/me/balances')).json()) as {
    asset: string;
    availableMinor: string;
  }[];
  expect(after.find((b) => b.asset === 'USDT')?.availableMinor).toBe('75000000');

  // The record is in the history, and its open history lists the pair.
  await page.getByTestId('convert-detail-history-link').click();
  await expect(page.getByTestId('convert-history-item')).toHaveCount(1);
  await context.close();
});
