import type { Browser, Page } from '@playwright/test';
import { parseEther } from 'viem';
import { newAccount, registerByApi } from '../account/account-helpers.ts';
import { signInByApi } from '../account/sign-in-by-api.ts';
import { expect, test } from '../support/fixtures.ts';
import { readChains } from '../wallet/wallet-helpers.ts';
import { fundNative, installRecordingWallet, violations } from './wallet-mock.ts';
import type { InjectionMode } from './wallet-mock-modes.ts';

test.describe.configure({ timeout: 120_000 });

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** A phone browser (iPhone user agent, 390x844): where "Open in <wallet>" and the in-app notices apply. */
async function phone(browser: Browser, tag: string) {
  const account = newAccount(tag);
  const context = await browser.newContext({
    userAgent: IPHONE_UA,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await registerByApi(context.request, account);
  const page = await context.newPage();
  return { account, context, page };
}

const hrefOf = (page: Page, id: string) => page.getByTestId(`open-in-${id}`).getAttribute('href');

test('a phone with no wallet: "Open in <wallet>" links for this very page, custom schemes marked, copy link', async ({
  browser,
}) => {
  const { account, context, page } = await phone(browser, 'openin');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInByApi(context, account.username, account.password);
  await page.goto('/sign');
  await expect(page.getByTestId('open-in-wallet')).toBeVisible();
  const sign = new URL(page.url());
  expect(await hrefOf(page, 'metamask')).toBe(`https://link.metamask.io/dapp/${sign.host}/sign`);
  expect(await hrefOf(page, 'trust')).toBe(
    `https://link.trustwallet.com/open_url?coin_id=60&url=${encodeURIComponent(sign.href)}`,
  );
  const okx = new URL((await hrefOf(page, 'okx')) ?? '');
  expect(new URL(okx.searchParams.get('deeplink') ?? '').searchParams.get('dappUrl')).toBe(sign.href);
  await expect(page.getByTestId('open-in-wallet')).toContainText('仅在已安装该 App 时才能打开');
  await page.getByTestId('open-in-copy').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sign.href);

  // The deposit screen opens on the deposit screen, with its network and coin.
  await page.goto('/coinTopup/deposit?coin=USDT&network=ethereum');
  await page.getByTestId('wallet-deposit-open').click();
  await expect(page.getByTestId('open-in-wallet')).toBeVisible();
  const deposit = new URL(page.url());
  expect(deposit.search).toContain('coin=USDT');
  expect(await hrefOf(page, 'metamask')).toBe(
    `https://link.metamask.io/dapp/${deposit.host}${deposit.pathname}${deposit.search}`,
  );
  expect(new URL((await hrefOf(page, 'coinbase')) ?? '').searchParams.get('cb_url')).toBe(deposit.href);
  expect(new URL((await hrefOf(page, 'bitget')) ?? '').searchParams.get('url')).toBe(deposit.href);
  const tp = (await hrefOf(page, 'tokenpocket')) ?? '';
  expect(JSON.parse(decodeURIComponent(tp.slice('tpdapp://open?params='.length))).url).toBe(deposit.href);
  expect(await hrefOf(page, 'imtoken')).toBe(`imtokenv2://navigate/DappView?url=${encodeURIComponent(deposit.href)}`);
  await context.close();
});

const MODES: { title: string; mode: InjectionMode; option: string; global: string }[] = [
  {
    title: 'a legacy window.ethereum without EIP-6963',
    mode: { kind: 'legacy' },
    option: '浏览器钱包',
    global: 'ethereum',
  },
  { title: 'a provider injected after load', mode: { kind: 'late' }, option: '浏览器钱包', global: 'ethereum' },
  {
    title: 'window.okxwallet only',
    mode: { kind: 'named', path: ['okxwallet'] },
    option: 'OKX Wallet',
    global: 'okxwallet',
  },
  {
    title: 'window.binancew3w.ethereum only',
    mode: { kind: 'named', path: ['binancew3w', 'ethereum'] },
    option: 'Binance Web3 Wallet',
    global: 'binancew3w.ethereum',
  },
];

for (const { title, mode, option, global } of MODES) {
  test(`${title}: connects under its name, deposits, and every request passes the allowlist`, async ({ browser }) => {
    const ethereum = readChains()?.ethereum;
    test.skip(!ethereum, 'no local chains on this server');
    if (!ethereum) return;
    const { account, context, page } = await phone(browser, 'inj');
    const wallet = await installRecordingWallet(page, ethereum, undefined, undefined, mode);
    await fundNative(ethereum.rpcUrl, wallet.address, parseEther('1'));
    if (mode.kind === 'named') {
      // In the wallet's own browser the login screen says so: its storage is its own.
      await page.goto('/login');
      await expect(page.getByTestId('login-in-app-browser')).toContainText(option);
    }
    await signInByApi(context, account.username, account.password);
    await page.goto('/coinTopup/deposit?coin=ETH&network=ethereum');
    const depositAddress = ((await page.getByTestId('deposit-address').textContent()) ?? '') as `0x${string}`;
    await page.getByTestId('wallet-deposit-open').click();
    const choice = page.getByTestId('wallet-option').filter({ hasText: option });
    await expect(choice).toBeVisible({ timeout: 15_000 });
    await choice.getByRole('button').click();
    await expect(page.getByTestId('wallet-deposit-form')).toBeVisible();
    await page.getByTestId('wallet-deposit-amount').fill('0.1');
    await page.getByTestId('wallet-deposit-send').click();
    await expect(page).toHaveURL(/\/coinTopup\/topup\?id=/, { timeout: 30_000 });

    // The page's own global is the guarded one: a signature never reaches the wallet.
    const refused = await page.evaluate(async (path) => {
      let provider: unknown = window;
      for (const key of path.split('.')) provider = (provider as Record<string, unknown>)[key];
      try {
        await (provider as { request: (a: unknown) => Promise<unknown> }).request({
          method: 'personal_sign',
          params: ['0x00', '0x0000000000000000000000000000000000000000'],
        });
        return 'signed';
      } catch (err) {
        return String((err as Error).message);
      }
    }, global);
    expect(refused).toMatch(/refused/);
    expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(1);
    expect(violations(wallet.requests, { deposits: { depositAddress, native: [parseEther('0.1')] } })).toEqual([]);
    await context.close();
  });
}
