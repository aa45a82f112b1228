import { expect, test } from '../support/fixtures.ts';
import { BAD_CHECKSUM_ADDRESS, GOOD_ETH_ADDRESS, signedInPage } from './wallet-helpers.ts';

test('address book: a bad address is refused with the translated error; a good one is saved and picked when sending', async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, 'book');
  await page.goto('/addressBook');
  await expect(page.getByTestId('wallet-address-book')).toBeVisible();
  await expect(page.getByTestId('state-empty')).toBeVisible();
  await page.getByTestId('address-book-add').click();
  await expect(page).toHaveURL(/\/addressBook\/add$/);

  await page.getByTestId('address-add-name').locator('input').fill('Cold wallet');
  await page.getByTestId('address-add-network').getByText('Ethereum', { exact: true }).click();
  const address = page.getByTestId('address-add-address').locator('textarea');
  await address.fill(BAD_CHECKSUM_ADDRESS);
  await page.getByTestId('address-add-submit').click();
  await expect(page.getByTestId('address-add-address-error')).toHaveText('地址无效或与网络不匹配');

  // A TRON address on the Ethereum network is just as wrong.
  await address.fill('TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7');
  await expect(page.getByTestId('address-add-address-error')).toHaveText('地址无效或与网络不匹配');

  await address.fill(GOOD_ETH_ADDRESS);
  await expect(page.getByTestId('address-add-address-error')).toHaveCount(0);
  await page.getByTestId('address-add-remark').locator('input').fill('hardware');
  await page.getByTestId('address-add-submit').click();
  await expect(page.getByTestId('wallet-address-book')).toBeVisible();
  await expect(page.getByTestId('address-book-entry')).toHaveCount(1);
  await expect(page.getByTestId('address-book-entry')).toContainText('Cold wallet');
  await expect(page.getByTestId('address-book-address')).toHaveText(GOOD_ETH_ADDRESS);

  // Stored on the server: another device sees it.
  const listed = await page.request.get('/api/wallet/address-book');
  expect(((await listed.json()) as { entries: { address: string }[] }).entries.map((e) => e.address)).toEqual([
    GOOD_ETH_ADDRESS,
  ]);

  // Pick it on the send screen.
  await page.goto('/coinTopup/send?coin=USDT&network=ethereum');
  await expect(page.getByTestId('wallet-send')).toBeVisible();
  await page.getByTestId('send-address-book').click();
  await page.getByTestId('address-book-pick').first().click();
  await expect(page.getByTestId('send-address').locator('textarea')).toHaveValue(GOOD_ETH_ADDRESS);
  await context.close();
});

test('address book: an entry is edited from the list and the change is stored on the server', async ({ browser }) => {
  const { context, page } = await signedInPage(browser, 'bookedit');
  const created = await page.request.post('/api/wallet/address-book', {
    data: { name: 'Old name', walletType: 'personal', network: 'ethereum', address: GOOD_ETH_ADDRESS, remark: null },
  });
  expect(created.ok()).toBe(true);
  await page.goto('/addressBook');
  await expect(page.getByTestId('address-book-entry')).toHaveCount(1);
  await page.getByTestId('address-book-edit').click();
  await expect(page).toHaveURL(/\/addressBook\/edit\?id=/);
  await expect(page.getByTestId('wallet-address-edit')).toBeVisible();
  const name = page.getByTestId('address-add-name').locator('input');
  await expect(name).toHaveValue('Old name');
  await expect(page.getByTestId('address-add-address').locator('textarea')).toHaveValue(GOOD_ETH_ADDRESS);

  // The same checks as adding: a wrong address is refused before the server sees it.
  await page.getByTestId('address-add-address').locator('textarea').fill(BAD_CHECKSUM_ADDRESS);
  await expect(page.getByTestId('address-add-address-error')).toHaveText('地址无效或与网络不匹配');
  await page.getByTestId('address-add-address').locator('textarea').fill(GOOD_ETH_ADDRESS);
  await name.fill('Exchange deposit');
  await page.getByTestId('address-add-wallet-type').getByText('交易所').click();
  await page.getByTestId('address-add-remark').locator('input').fill('renamed');
  await page.getByTestId('address-add-submit').click();

  await expect(page.getByTestId('wallet-address-book')).toBeVisible();
  await expect(page.getByTestId('address-book-entry')).toHaveCount(1);
  await expect(page.getByTestId('address-book-entry')).toContainText('Exchange deposit');
  await expect(page.getByTestId('address-book-entry')).toContainText('renamed');
  const listed = await page.request.get('/api/wallet/address-book');
  const entries = ((await listed.json()) as { entries: { name: string; walletType: string; remark: string }[] })
    .entries;
  expect(entries).toHaveLength(1);
  expect(entries[0]).toMatchObject({ name: 'Exchange deposit', walletType: 'exchange', remark: 'renamed' });
  await context.close();
});
