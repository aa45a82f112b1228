import type { Browser, Page } from '@playwright/test';
import { readCode } from './account/account-helpers.ts';
import { expect, test } from './support/fixtures.ts';
import { faucet, mineBlocks, readChains, setFundPasswordByApi, signedInPage } from './wallet/wallet-helpers.ts';

/**
 * Buy and sell through the sandbox payment provider (MoonPay's API on loopback, its own checkout
 * pages), with real delivery on the local anvil chain: the provider's coins reach the user's deposit
 * address and the wallet's watcher credits them; a sell's coins go out through the signer.
 */

async function payByCard(page: Page, card = '4242 4242 4242 4242') {
  await expect(page.getByTestId('sandbox-banner')).toBeVisible();
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM/YY)').fill('12/30');
  await page.getByLabel('CVC').fill('123');
  await page.getByTestId('checkout-pay').click();
  await expect(page.getByTestId('checkout-done')).toBeVisible();
}

async function quoteAndSubmit(page: Page) {
  await expect(page.getByTestId('ramp-quote-expiry')).toBeVisible();
  await page.getByTestId('ramp-terms').click();
  await page.getByTestId('ramp-submit').click();
}

async function balanceOf(page: Page, asset: string): Promise<string> {
  const rows = (await (await page.request.get('/api/me/balances')).json()) as {
    asset: string;
    availableMinor: string;
  }[];
  return rows.find((r) => r.asset === asset)?.availableMinor ?? '0';
}
const usdtBalance = (page: Page) => balanceOf(page, 'USDT');
const FUND_PASSWORD = '739164';

test('a Brazilian user buys USDT by card in the sandbox and sees it credited on chain', async ({ browser }) => {
  const chains = readChains();
  test.skip(!chains?.ethereum, 'no local chains (chains.json) on this server');
  const { page, context } = await signedInPage(browser, 'rampbuy', 'BR');
  await page.goto('/buySell');
  await expect(page.getByTestId('ramp-sandbox')).toHaveText('沙盒服务商：测试支付和测试币');
  await page.getByTestId('ramp-coin-USDT/ethereum').click();
  await page.getByTestId('ramp-amount').fill('200');
  // R$200.00: fee 7.00 (3.5 %), network fee 2.67, 190.33 / 5.33 = 35.709193 USDT.
  await expect(page.getByTestId('ramp-quote-get')).toHaveText('35.7 USDT');
  await expect(page.getByTestId('ramp-quote-fee')).toHaveText('R$9.67');
  await quoteAndSubmit(page);
  await payByCard(page);
  await expect(page).toHaveURL(/\/buySell\/order\?id=/);
  await expect(page.getByTestId('ramp-status').first()).toHaveAttribute('data-status', 'completed', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('ramp-detail-tx')).toHaveText(/^0x[0-9a-f]{64}$/);
  await mineBlocks(chains?.ethereum?.rpcUrl ?? '', 6);
  await expect(page.getByTestId('ramp-detail-deposit')).toHaveText('已入账到钱包', { timeout: 60_000 });
  expect(await usdtBalance(page)).toBe('35709193');
  await expect(page.getByTestId('ramp-timeline')).toContainText('已完成');
  await context.close();
});

test('a declined card fails the buy and nothing arrives', async ({ browser }) => {
  test.skip(!readChains()?.ethereum, 'no local chains (chains.json) on this server');
  const { page, context } = await signedInPage(browser, 'rampdecl', 'BR');
  await page.goto('/buySell');
  await page.getByTestId('ramp-amount').fill('150');
  await quoteAndSubmit(page);
  await payByCard(page, '4000 0000 0000 0002');
  await expect(page).toHaveURL(/\/buySell\/order\?id=/);
  await expect(page.getByTestId('ramp-status').first()).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
  // The provider's reason in the user's language (zh-CN), the raw code kept beside it.
  await expect(page.getByTestId('ramp-detail-reason')).toHaveText('银行卡被拒绝');
  await expect(page.getByTestId('ramp-detail-reason').locator('[data-reason]')).toHaveAttribute(
    'data-reason',
    'card_declined',
  );
  expect(await usdtBalance(page)).toBe('0');
  await context.close();
});

test('an Indian user sells USDT to a bank account (bad IFSC refused, INR minimum enforced)', async ({ browser }) => {
  const chains = readChains();
  test.skip(!chains?.ethereum, 'no local chains (chains.json) on this server');
  // A sell now also takes the fund password and an e-mailed code (issue 38): more than the default minute here.
  test.slow();
  const { page, context, account } = await signedInPage(browser, 'rampsell', 'IN');
  await setFundPasswordByApi(page.request, account.email, FUND_PASSWORD);
  await page.goto('/buySell');
  await expect(page.getByTestId('ramp-minimum')).toHaveText('最低支付金额：₹1,000.00');
  await page.getByTestId('ramp-amount').fill('500');
  await expect(page.getByTestId('ramp-quote-error')).toHaveText('低于最小限额');

  await page.goto('/buySell/paymentMethods/add');
  await page.getByTestId('payout-accountNumber').fill('123456789012');
  await page.getByTestId('payout-confirmAccountNumber').fill('123456789012');
  await page.getByTestId('payout-ifsc').fill('HDFC0654321');
  await page.getByTestId('payout-bankName').fill('HDFC Bank');
  await page.getByTestId('payout-holder').fill('Asha Kumari');
  await page.getByTestId('payout-identity-type-pan').click();
  await page.getByTestId('payout-identityNumber').fill('ABCDE1234F');
  await page.getByTestId('payout-fundPassword').fill(FUND_PASSWORD);
  await page.getByTestId('payment-method-save').click();
  await expect(page.getByTestId('payout-ifsc-error')).toHaveText('没有这个 IFSC 分行代码');
  await page.getByTestId('payout-ifsc').fill('HDFC0000001');
  await page.getByTestId('payment-method-save').click();
  await expect(page).toHaveURL(/\/buySell\/paymentMethods$/);

  const own = (await (await page.request.get('/api/wallet/deposit-address?coin=USDT&network=ethereum')).json()) as {
    address: string;
  };
  await faucet(own.address, '30', 'USDT', 'ethereum');
  await mineBlocks(chains?.ethereum?.rpcUrl ?? '', 7);
  await expect.poll(() => usdtBalance(page), { timeout: 60_000 }).toBe('30000000');

  await page.goto('/buySell');
  await page.getByTestId('ramp-side-sell').click();
  await page.getByTestId('ramp-coin-USDT/ethereum').click();
  await page.getByTestId('ramp-amount').fill('20');
  await page.getByTestId('ramp-payout').getByText('•••• 9012').click();
  await expect(page.getByTestId('ramp-quote-network-fee')).toHaveText('5 USDT');
  // A sell sends coins out like a withdrawal: it takes the fund password and a withdraw e-mail code.
  await expect(page.getByTestId('ramp-quote-expiry')).toBeVisible();
  await page.getByTestId('ramp-terms').click();
  await page.getByTestId('ramp-submit').click();
  await expect(page.getByText('请输入 6 位资金密码和邮箱验证码')).toBeVisible();
  await page.getByTestId('ramp-fund-password').fill('111111');
  const since = Date.now();
  await page.getByTestId('ramp-send-code').click();
  await page.getByTestId('ramp-email-code').fill(await readCode(page.request, account.email, since));
  await page.getByTestId('ramp-submit').click();
  await expect(page.getByText(/资金密码错误/)).toBeVisible();
  await expect.poll(() => usdtBalance(page)).toBe('30000000');
  await page.getByTestId('ramp-fund-password').fill(FUND_PASSWORD);
  await page.getByTestId('ramp-submit').click();
  await expect(page.getByTestId('sandbox-banner')).toBeVisible();
  await page.getByTestId('checkout-confirm').click();
  await expect(page).toHaveURL(/\/buySell\/order\?id=.*transactionId=/);
  // 20 USDT to the provider plus the 5 USDT network fee left the available balance at once.
  await expect.poll(() => usdtBalance(page)).toBe('5000000');
  await expect(page.getByTestId('ramp-detail-provider-address')).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await expect(page.getByTestId('ramp-status').first()).toHaveAttribute('data-status', 'completed', {
    timeout: 60_000,
  });
  // The provider may report before our signer has seen the receipt: the page keeps reading until both.
  await expect(page.getByTestId('ramp-detail-transfer')).toHaveText('已发送', { timeout: 60_000 });
  await context.close();
});

/** An Indian user with a bank payout method and 30 USDT credited on the local chain. */
async function fundedSeller(browser: Browser, tag: string) {
  const chains = readChains();
  const { page, context, account } = await signedInPage(browser, tag, 'IN');
  await setFundPasswordByApi(page.request, account.email, FUND_PASSWORD);
  await page.goto('/buySell/paymentMethods/add');
  await page.getByTestId('payout-accountNumber').fill('123456789012');
  await page.getByTestId('payout-confirmAccountNumber').fill('123456789012');
  await page.getByTestId('payout-ifsc').fill('HDFC0000001');
  await page.getByTestId('payout-bankName').fill('HDFC Bank');
  await page.getByTestId('payout-holder').fill('Asha Kumari');
  await page.getByTestId('payout-identity-type-pan').click();
  await page.getByTestId('payout-identityNumber').fill('ABCDE1234F');
  await page.getByTestId('payout-fundPassword').fill(FUND_PASSWORD);
  await page.getByTestId('payment-method-save').click();
  await expect(page).toHaveURL(/\/buySell\/paymentMethods$/);
  const own = (await (await page.request.get('/api/wallet/deposit-address?coin=USDT&network=ethereum')).json()) as {
    address: string;
  };
  await faucet(own.address, '30', 'USDT', 'ethereum');
  await mineBlocks(chains?.ethereum?.rpcUrl ?? '', 7);
  await expect.poll(() => usdtBalance(page), { timeout: 60_000 }).toBe('30000000');
  return { page, context, email: account.email };
}

/**
 * Places a 20 USDT sell to the bank account and answers the sandbox checkout with `outcome`.
 * The one place a sell is placed in these scenarios: when placing a sell asks for the fund password
 * and an e-mail code (issue 38), given after the quote as the sell form asks.
 */
async function placeSell(
  page: Page,
  email: string,
  outcome: 'checkout-confirm' | 'checkout-cancel' | 'checkout-confirm-reject',
) {
  await page.goto('/buySell');
  await page.getByTestId('ramp-side-sell').click();
  await page.getByTestId('ramp-coin-USDT/ethereum').click();
  await page.getByTestId('ramp-amount').fill('20');
  await page.getByTestId('ramp-payout').getByText('•••• 9012').click();
  await expect(page.getByTestId('ramp-quote-network-fee')).toHaveText('5 USDT');
  await page.getByTestId('ramp-fund-password').fill(FUND_PASSWORD);
  const since = Date.now();
  await page.getByTestId('ramp-send-code').click();
  await page.getByTestId('ramp-email-code').fill(await readCode(page.request, email, since));
  await quoteAndSubmit(page);
  await expect(page.getByTestId('sandbox-banner')).toBeVisible();
  await page.getByTestId(outcome).click();
  await expect(page).toHaveURL(/\/buySell\/order\?id=.*transactionId=/);
}

test('a sell cancelled at the provider before the payout is placed: nothing is sent, the coins are unlocked', async ({
  browser,
}) => {
  test.skip(!readChains()?.ethereum, 'no local chains (chains.json) on this server');
  test.slow(); // the fund password and an e-mailed code before the checkout (issue 38)
  const { page, context, email } = await fundedSeller(browser, 'rampsellcancel');
  // The provider's first (and only) event is a failure carrying a deposit address, and the user comes
  // back with the transaction id (the order screen asks to place the payout): issue 36 item 1.
  await placeSell(page, email, 'checkout-cancel');
  await expect(page.getByTestId('ramp-status').first()).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
  await expect(page.getByTestId('ramp-detail-reason')).toHaveText('您已在服务商处取消订单');
  await expect(page.getByTestId('ramp-detail-reason').locator('[data-reason]')).toHaveAttribute(
    'data-reason',
    'cancelled_by_user',
  );
  await expect.poll(() => usdtBalance(page), { timeout: 30_000 }).toBe('30000000');
  await expect(page.getByTestId('ramp-detail-transfer')).toHaveCount(0);
  // A reload (the URL still names the transaction) places nothing either.
  await page.reload();
  await expect(page.getByTestId('ramp-status').first()).toHaveAttribute('data-status', 'failed');
  expect(await usdtBalance(page)).toBe('30000000');
  await context.close();
});

test('a sell failed by the provider after our coins left: refund pending, then refunded to the wallet', async ({
  browser,
}) => {
  const chains = readChains();
  test.skip(!chains?.ethereum, 'no local chains (chains.json) on this server');
  test.slow(); // the fund password and an e-mailed code before the checkout (issue 38)
  const { page, context, email } = await fundedSeller(browser, 'rampsellreject');
  await placeSell(page, email, 'checkout-confirm-reject');
  // The payout was placed: 20 USDT plus the 5 USDT network fee left the available balance.
  await expect.poll(() => usdtBalance(page)).toBe('5000000');
  // The bank rejects the payout after the provider received our coins: the order never shows a plain
  // "failed" while the coins are out (issue 36 item 2); the provider sends them back and says refunded.
  await expect(page.getByTestId('ramp-status').first()).toHaveAttribute('data-status', /^(refund_pending|refunded)$/, {
    timeout: 60_000,
  });
  await expect(page.getByTestId('ramp-status').first()).toHaveAttribute('data-status', 'refunded', {
    timeout: 60_000,
  });
  await expect(page.getByTestId('ramp-detail-reason')).toHaveText('银行拒绝了这笔付款');
  await expect(page.getByTestId('ramp-detail-reason').locator('[data-reason]')).toHaveAttribute(
    'data-reason',
    'payout_rejected_by_bank',
  );
  // The provider's refund is an ordinary deposit to the user's address: credited after its confirmations.
  await mineBlocks(chains?.ethereum?.rpcUrl ?? '', 7);
  await expect.poll(() => usdtBalance(page), { timeout: 60_000 }).toBe('25000000');
  await context.close();
});

test('a user from another country is refused with the specification words', async ({ browser }) => {
  const { page, context } = await signedInPage(browser, 'rampes', 'ES');
  await page.goto('/buySell');
  await expect(page.getByTestId('ramp-unavailable')).toContainText('第三方支付仅限巴西和印度');
  await expect(page.getByTestId('ramp-submit')).toHaveCount(0);
  await context.close();
});

test('a sell whose buyer pays only by chat app asks to add one, and leads there', async ({ browser }) => {
  const chains = readChains();
  test.skip(!chains?.ethereum, 'no local chains (chains.json) on this server');
  const { page, context } = await signedInPage(browser, 'rampchat', 'IN');
  const own = (await (await page.request.get('/api/wallet/deposit-address?coin=ETH&network=ethereum')).json()) as {
    address: string;
  };
  await faucet(own.address, '0.05', 'ETH', 'ethereum');
  await mineBlocks(chains?.ethereum?.rpcUrl ?? '', 7);
  await expect.poll(() => balanceOf(page, 'ETH'), { timeout: 60_000 }).not.toBe('0');
  await page.goto('/buySell');
  await page.getByTestId('ramp-side-sell').click();
  await page.getByTestId('ramp-coin-ETH/ethereum').click();
  await page.getByTestId('ramp-amount').fill('0.01');
  await quoteAndSubmit(page);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('买家仅支持聊天应用收款方式：请添加并启用');
  await dialog.getByRole('button', { name: '去添加' }).click();
  await expect(page).toHaveURL(/\/buySell\/paymentMethods\/add\?kind=chat_app/);
  await context.close();
});

test('quick buy from the wallet: one tap opens the pre-filled buy, confirm, pay in the checkout', async ({
  browser,
}) => {
  test.skip(!readChains()?.ethereum, 'no local chains (chains.json) on this server');
  const { page, context } = await signedInPage(browser, 'rampquick', 'BR');
  // Quick buy on, as Settings would save it. The app saves its own settings after the sign-in, which
  // can land after this request: save again until the wallet shows the button.
  await expect(async () => {
    const { saved: _, ...settings } = await (await page.request.get('/api/me/settings')).json();
    const put = await page.request.put('/api/me/settings', {
      data: { ...settings, quickBuy: { enabled: true, coin: 'USDT', fiatAmount: '250.00' } },
    });
    expect(put.status()).toBe(200);
    await page.goto('/coinTopup');
    await expect(page.getByTestId('wallet-quick-buy')).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 40_000 });
  await page.getByTestId('wallet-quick-buy').click();
  await expect(page).toHaveURL(/\/buySell\?side=buy&coin=USDT&amount=250.00/);
  await expect(page.getByTestId('ramp-amount')).toHaveValue('250.00');
  await quoteAndSubmit(page);
  await expect(page.getByRole('button', { name: 'Pay BRL 250.00' })).toBeVisible();
  await payByCard(page);
  await expect(page).toHaveURL(/\/buySell\/order\?id=/);
  await context.close();
});
