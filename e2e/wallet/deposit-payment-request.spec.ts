import { parse } from 'eth-url-parser';
import { createWalletClient, defineChain, type Hex, http, parseAbi, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { fundNative } from '../rewards/wallet-mock.ts';
import { PHONE_DPR } from '../support/e2e-env.ts';
import { expect, test } from '../support/fixtures.ts';
import { faucet, mineBlocks, pickGalleryImage, readChains, signedInPage } from './wallet-helpers.ts';

test.describe.configure({ timeout: 150_000 });
// The QR code is read back from a screenshot of the screen: a phone's pixels.
test.use({ deviceScaleFactor: PHONE_DPR });

const transferAbi = parseAbi(['function transfer(address to, uint256 amount) returns (bool)']);

/**
 * Issue 33: the deposit screen's EIP-681 payment request for a typed amount. Its QR code is read back
 * by the suite's QR reader (the app's own scanner, ZXing, on the send screen) to the exact request; a
 * phone wallet that pays it (here: a key on anvil) is credited as any deposit.
 */
test('EIP-681 payment request: QR decodes to the exact request; paid on chain, it is credited', async ({ browser }) => {
  const ethereum = readChains()?.ethereum;
  test.skip(!ethereum, 'no local chains on this server');
  if (!ethereum) return;
  const usdt = ethereum.tokens.USDT as Hex;
  const { page, context } = await signedInPage(browser, 'p681');

  // The native form: value in wei to my deposit address on this chain.
  await page.goto('/coinTopup/deposit?coin=ETH&network=ethereum');
  const ethAddress = (await page.getByTestId('deposit-address').textContent()) ?? '';
  await page.getByTestId('payment-request-open').click();
  await page.getByTestId('payment-request-amount').fill('0.5');
  const native = (await page.getByTestId('payment-request-link').getAttribute('href')) ?? '';
  expect(native).toBe(`ethereum:${ethAddress}@${ethereum.chainId}?value=500000000000000000`);
  expect(parse(native)).toMatchObject({ target_address: ethAddress, chain_id: String(ethereum.chainId) });

  // The token form: USDT's transfer(address, uint256) to my address, amount in the token's units.
  await page.goto('/coinTopup/deposit?coin=USDT&network=ethereum');
  const depositAddress = ((await page.getByTestId('deposit-address').textContent()) ?? '') as Hex;
  await page.getByTestId('payment-request-open').click();
  await page.getByTestId('payment-request-amount').fill('20');
  const uri = (await page.getByTestId('payment-request-link').getAttribute('href')) ?? '';
  expect(uri).toBe(`ethereum:${usdt}@${ethereum.chainId}/transfer?address=${depositAddress}&uint256=20000000`);
  const parsed = parse(uri);
  expect(parsed).toMatchObject({
    target_address: usdt,
    chain_id: String(ethereum.chainId),
    function_name: 'transfer',
    parameters: { address: depositAddress, uint256: '20000000' },
  });
  const qr = await page.getByTestId('payment-request-qr').screenshot();

  // The suite's QR reader: the send screen's scanner reads the picture to the same request.
  await page.goto('/coinTopup/send?coin=USDT&network=ethereum');
  await page.getByTestId('send-address-scan').click();
  await pickGalleryImage(page, { name: 'request.png', mimeType: 'image/png', buffer: qr });
  await expect(page.getByTestId('qr-scanner')).toHaveCount(0);
  await expect(page.getByTestId('send-address').locator('textarea')).toHaveValue(depositAddress);
  const scanned = page.getByTestId('send-address-scanned');
  await expect(scanned).toContainText(`${usdt.slice(0, 6)}…${usdt.slice(-4)}`);
  await expect(scanned).toContainText('金额 20000000（最小单位）');
  await expect(scanned).toContainText(`链 ${ethereum.chainId}`);

  // A phone wallet pays exactly what it read: credited like any deposit.
  const payer = privateKeyToAccount(generatePrivateKey());
  await fundNative(ethereum.rpcUrl, payer.address, parseEther('1'));
  await faucet(payer.address, '50', 'USDT', 'ethereum');
  const chain = defineChain({
    id: ethereum.chainId,
    name: 'Local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [ethereum.rpcUrl] } },
  });
  const client = createWalletClient({ account: payer, chain, transport: http(ethereum.rpcUrl) });
  await client.writeContract({
    address: parsed.target_address as Hex,
    abi: transferAbi,
    functionName: 'transfer',
    args: [parsed.parameters?.address as Hex, BigInt(parsed.parameters?.uint256 ?? '0')],
  });
  await expect
    .poll(
      async () =>
        ((await (await page.request.get('/api/wallet/history?type=deposit')).json()) as { items: unknown[] }).items
          .length,
      { timeout: 60_000, message: 'the deposit is seen by the watcher' },
    )
    .toBe(1);
  await page.goto('/coinTopup/deposit?coin=USDT&network=ethereum');
  await page.getByTestId('deposit-transferred').click();
  await expect(page).toHaveURL(/\/coinTopup\/topup\?id=/);
  await mineBlocks(ethereum.rpcUrl, 80);
  await expect(page.getByTestId('topup-state')).toHaveAttribute('data-state', 'successful', { timeout: 30_000 });
  await expect(page.getByTestId('topup-amount')).toHaveText('20 USDT');
  await context.close();
});
