import { opsCommand } from './mail/mail-helpers.ts';
import { expect, test } from './support/fixtures.ts';
import { faucet, mineBlocks, readChains, signedInPage } from './wallet/wallet-helpers.ts';

test('verify my balance: the browser recomputes the path from the user leaf to the published root', async ({
  browser,
}) => {
  const chains = readChains();
  test.skip(!chains?.ethereum, 'no local chains (chains.json) on this server');
  const { page, context } = await signedInPage(browser, 'porcheck');
  // A new account is in no snapshot yet: a normal state that says when the next is due, not an error.
  await page.goto('/coinTopup/verify');
  await expect(page.getByTestId('proof-not-yet')).toBeVisible();
  await expect(page.getByTestId('proof-not-yet')).toContainText('您的余额尚未纳入快照');
  const own = (await (await page.request.get('/api/wallet/deposit-address?coin=USDT&network=ethereum')).json()) as {
    address: string;
  };
  await faucet(own.address, '12', 'USDT', 'ethereum');
  await mineBlocks(chains?.ethereum?.rpcUrl ?? '', 7);
  await expect
    .poll(
      async () => {
        const rows = (await (await page.request.get('/api/me/balances')).json()) as {
          asset: string;
          availableMinor: string;
        }[];
        return rows.find((r) => r.asset === 'USDT')?.availableMinor;
      },
      { timeout: 60_000 },
    )
    .toBe('12000000');
  // An operator publishes a snapshot now (the server also does on its schedule).
  const out = await opsCommand(['por', 'publish']);
  expect(out).toMatch(/published/);
  // Reconcile: the ledger, the latest root beside it, and the reserves read from the local chains.
  const reconciled = await opsCommand(['reconcile']);
  expect(reconciled).toContain('RECONCILED');
  expect(reconciled).toContain('proof of liabilities: latest root');
  expect(reconciled).toMatch(/USDT\treserves \d+ \(ethereum\+bsc\)\tliabilities \d+/);

  await page.goto('/coinTopup');
  await page.getByTestId('wallet-verify').click();
  await expect(page).toHaveURL(/\/coinTopup\/verify/);
  await expect(page.getByTestId('proof-result')).toHaveAttribute('data-ok', 'true');
  await expect(page.getByTestId('proof-as-of')).toBeVisible();
  await expect(page.getByTestId('proof-result')).toContainText('您的余额包含在已公布的总额中');
  await expect(page.getByTestId('proof-balance-USDT')).toHaveText('12 USDT');
  const published = (await (await page.request.get('/api/por')).json()) as { latest: { rootHash: string } };
  await expect(page.getByTestId('proof-root')).toHaveText(published.latest.rootHash);

  // A proof altered on its way (a lowered total in the path) fails in the browser.
  await page.route('**/api/por/proof', async (route) => {
    const response = await route.fetch();
    const proof = await response.json();
    if (proof.path.length > 0) proof.path[0].sums = proof.path[0].sums.map(() => '0');
    else proof.leaf.balances = proof.leaf.balances.map(() => '1');
    await route.fulfill({ response, json: proof });
  });
  await page.reload();
  await expect(page.getByTestId('proof-result')).toHaveAttribute('data-ok', 'false');
  await context.close();
});
