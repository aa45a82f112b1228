import { randomUUID } from 'node:crypto';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { readCode } from '../account/account-helpers.ts';
import { expect, test } from '../support/fixtures.ts';
import { faucet, mineBlocks, readChains, signedInPage } from '../wallet/wallet-helpers.ts';
import { ensureOperator, OPS_CONSOLE_URL, signInOperatorPage } from './mail-helpers.ts';

/**
 * Issue 32, withdrawal review with four eyes, in two operators' browsers: a 12,000 USDT withdrawal
 * (above the $10,000 second-approval value and the automatic review limit) waits for review; finance
 * operator A approves and it waits for a second approval; A again is refused; finance operator B
 * approves; the signer pays it on the local chain and the user's screen shows it paid. A support
 * operator has no Withdrawals page and the queue answers 403.
 */
test.describe.configure({ timeout: 300_000 });

test('@desktop four eyes: A approves a large withdrawal, it waits, A again is refused, B approves, the user sees it paid', async ({
  browser,
}) => {
  const chains = readChains();
  test.skip(!chains?.ethereum, 'no local chains (chains.json) on this server');
  const eth = chains?.ethereum;
  if (!eth) return;
  const stamp = String(Date.now()).slice(-8);
  const [finA, finB, support] = [`e2e_fa_${stamp}`, `e2e_fb_${stamp}`, `e2e_sp_${stamp}`];
  await ensureOperator(finA, 'finance');
  await ensureOperator(finB, 'finance');
  await ensureOperator(support, 'support');

  // The user: 12,100 USDT deposited on the local ethereum chain, then a 12,000 USDT withdrawal.
  const { account, page: userPage } = await signedInPage(browser, 'foureyes');
  const addressRes = await userPage.request.get('/api/wallet/deposit-address?coin=USDT&network=ethereum');
  expect(addressRes.status(), await addressRes.text()).toBe(200);
  await faucet(((await addressRes.json()) as { address: string }).address, '12100', 'USDT', 'ethereum');
  await expect
    .poll(
      async () => {
        await mineBlocks(eth.rpcUrl, 8);
        const balances = (await (await userPage.request.get('/api/me/balances')).json()) as {
          asset: string;
          availableMinor: string;
        }[];
        return balances.find((b) => b.asset === 'USDT')?.availableMinor ?? '0';
      },
      { timeout: 90_000, message: 'the deposit is credited' },
    )
    .toBe('12100000000');
  const since = Date.now();
  expect((await userPage.request.post('/api/wallet/withdrawals/email-code', { data: {} })).status()).toBeLessThan(300);
  const emailCode = await readCode(userPage.request, account.email, since);
  const placed = await userPage.request.post('/api/wallet/withdrawals', {
    data: {
      coin: 'USDT',
      network: 'ethereum',
      address: privateKeyToAddress(generatePrivateKey()),
      amountMinor: '12000000000',
      idempotencyKey: randomUUID(),
      emailCode,
    },
  });
  expect(placed.status(), await placed.text()).toBeLessThan(300);
  const { id, state } = (await placed.json()) as { id: string; state: string };
  expect(state).toBe('in_review');
  await userPage.goto(`/coinTopup/withdrawDeposit?type=withdrawal&id=${id}`);
  await expect(userPage.getByTestId('withdraw-state')).toHaveAttribute('data-state', 'in_review');

  // Operator A (finance), in a browser of its own: the first approval; it waits.
  const aContext = await browser.newContext();
  const a = await aContext.newPage();
  await a.goto(OPS_CONSOLE_URL);
  await signInOperatorPage(a, finA);
  await a.getByTestId('ops-tab-withdrawals').click();
  const rowA = a.getByTestId(`ops-wd-row-${id}`);
  await expect(rowA).toBeVisible();
  await expect(a.getByTestId(`ops-wd-amount-${id}`)).toHaveText('12,000 USDT');
  await expect(a.getByTestId(`ops-wd-signals-${id}`)).toContainText('First withdrawal');
  await a.getByTestId(`ops-wd-approve-${id}`).click();
  await expect(a.getByTestId(`ops-wd-state-${id}`)).toHaveText('awaiting second approval');
  await expect(rowA).toContainText('above the second-approval value');
  // A again: refused by the server, said on the row; the user still sees it in review.
  await a.getByTestId(`ops-wd-approve-${id}`).click();
  await expect(a.getByTestId(`ops-wd-problem-${id}`)).toContainText('Four eyes');
  await expect(a.getByTestId(`ops-wd-state-${id}`)).toHaveText('awaiting second approval');
  await userPage.reload();
  await expect(userPage.getByTestId('withdraw-state')).toHaveAttribute('data-state', 'in_review');

  // Operator B (finance), another browser: the second approval; the signer pays it on anvil.
  const bContext = await browser.newContext();
  const b = await bContext.newPage();
  await b.goto(OPS_CONSOLE_URL);
  await signInOperatorPage(b, finB);
  await b.getByTestId('ops-tab-withdrawals').click();
  await expect(b.getByTestId(`ops-wd-decisions-${id}`)).toContainText(`approve by ${finA}`);
  await b.getByTestId(`ops-wd-approve-${id}`).click();
  await expect(b.getByTestId(`ops-wd-row-${id}`)).toHaveCount(0);
  await expect(userPage.getByTestId('withdraw-state')).toHaveAttribute('data-state', 'transfer_successful', {
    timeout: 120_000,
  });

  // Support: no Withdrawals page, and the queue itself refuses it.
  const sContext = await browser.newContext();
  const s = await sContext.newPage();
  await s.goto(OPS_CONSOLE_URL);
  await signInOperatorPage(s, support);
  await expect(s.getByTestId('ops-roles')).toHaveText('(support)');
  await expect(s.getByTestId('ops-tab-withdrawals')).toHaveCount(0);
  const queue = await s.request.get(`${OPS_CONSOLE_URL.replace(/\/ops\/$/, '')}/api/ops/withdrawals/review`);
  expect(queue.status()).toBe(403);
  await Promise.all([aContext.close(), bContext.close(), sContext.close()]);
});
