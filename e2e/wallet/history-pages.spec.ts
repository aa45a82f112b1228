import { createWalletClient, http, parseAbi, parseUnits } from 'viem';
import { expect, test } from '../support/fixtures.ts';
import { readChains, signedInPage } from './wallet-helpers.ts';

/** anvil's first pre-funded, unlocked account: it deployed the test tokens and may mint them. */
const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const MINT_ABI = parseAbi(['function mint(address to, uint256 value)']);
const DEPOSITS = 23;

test('history loads further pages as the list scrolls', async ({ browser }) => {
  const chains = readChains();
  test.skip(!chains?.ethereum?.tokens.USDC, 'no local chains (chains.json) on this server');
  const ethereum = chains?.ethereum;
  const token = ethereum?.tokens.USDC;
  if (!ethereum || !token) return;
  const { context, page } = await signedInPage(browser, 'pages');
  const { address } = (await (
    await page.request.get('/api/wallet/deposit-address?coin=USDC&network=ethereum')
  ).json()) as {
    address: `0x${string}`;
  };
  // More deposits than one page (20): each mint is its own transaction, so its own deposit.
  const wallet = createWalletClient({ account: DEV_ACCOUNT, transport: http(ethereum.rpcUrl) });
  for (let i = 1; i <= DEPOSITS; i += 1) {
    await wallet.writeContract({
      address: token,
      abi: MINT_ABI,
      functionName: 'mint',
      args: [address, parseUnits(String(i), 6)],
      chain: null,
    });
  }
  await expect
    .poll(
      async () => {
        const first = await page.request.get('/api/wallet/history?type=deposit&limit=50');
        return ((await first.json()) as { items: unknown[] }).items.length;
      },
      { timeout: 60_000, message: 'every deposit is seen by the watcher' },
    )
    .toBe(DEPOSITS);

  await page.goto('/coinTopup/history');
  const items = page.getByTestId('history-item');
  await expect(items.first()).toBeVisible();
  expect(await items.count()).toBeLessThanOrEqual(20);
  // Scrolling to the end asks for the next page, until there is no more.
  await expect
    .poll(
      async () => {
        await page.getByTestId('list').evaluate((list) => list.closest('[data-scrollable="true"]')?.scrollTo(0, 1e6));
        return items.count();
      },
      { timeout: 20_000 },
    )
    .toBe(DEPOSITS);
  await expect(page.getByTestId('list-no-more')).toBeVisible();
  await context.close();
});
