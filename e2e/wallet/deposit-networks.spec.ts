import { expect, test } from '../support/fixtures.ts';
import { signedInPage } from './wallet-helpers.ts';

test('a network nobody watches shows as unavailable with its reason, never with an address', async ({ browser }) => {
  const { context, page } = await signedInPage(browser, 'depnet');
  await page.goto('/coinTopup/deposit?coin=BTC');
  await expect(page.getByTestId('deposit-unavailable')).toContainText('Bitcoin');
  await expect(page.getByTestId('deposit-address')).toHaveCount(0);

  // ETH on the running local chain: an address, labelled by its network only.
  await page.goto('/coinTopup/deposit?coin=ETH');
  await expect(page.getByTestId('deposit-address')).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await expect(page.getByTestId('deposit-network')).toContainText('Ethereum');
  await expect(page.getByTestId('deposit-network')).not.toContainText('ERC-20');

  // "I have transferred" before anything arrived: explained under the button, the QR code stays in view.
  await page.getByTestId('deposit-transferred').click();
  await expect(page.getByTestId('deposit-transferred-noted')).toBeVisible();
  await expect(page.getByTestId('deposit-address-card')).toBeInViewport();
  await context.close();
});
