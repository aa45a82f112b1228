import { newAccount, readCode } from '../account/account-helpers.ts';
import { expect, test } from '../support/fixtures.ts';
import { signedInPage } from '../wallet/wallet-helpers.ts';

test("register through an invite link and show up in the inviter's records", async ({ browser }) => {
  const inviter = await signedInPage(browser, 'inviter');
  await inviter.page.goto('/invite');
  const code = (await inviter.page.getByTestId('invite-code').textContent()) ?? '';
  expect(code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
  const link = (await inviter.page.getByTestId('invite-link').textContent()) ?? '';
  expect(link).toMatch(new RegExp(`/signIn\\?invite=${code}$`));
  await expect(inviter.page.getByTestId('invite-poster').getByTestId('qr-code')).toBeVisible();

  // A friend opens the link: the registration form has the code filled in.
  const friendContext = await browser.newContext();
  const page = await friendContext.newPage();
  await page.goto(new URL(link).pathname + new URL(link).search);
  await expect(page.getByTestId('signup-invite')).toHaveValue(code);
  const friend = newAccount('invitee');
  await page.getByTestId('signup-username').fill(friend.username);
  await page.getByTestId('signup-country').click();
  await page.getByTestId('country-search').locator('input').fill('巴西');
  await page.getByTestId('country-option-BR').click();
  await page.getByTestId('signup-password').fill(friend.password);
  await page.getByTestId('signup-confirm').fill(friend.password);
  await page.getByTestId('signup-email').fill(friend.email);
  const since = Date.now();
  await page.getByTestId('signup-send-code').click();
  await page.getByTestId('signup-code').fill(await readCode(page.request, friend.email, since));
  await page.getByTestId('signup-agree').check();

  // A mistyped code is refused on its field and changes nothing; the real one registers.
  await page.getByTestId('signup-invite').fill('ZZZZZZZZ');
  await page.getByTestId('signup-submit').click();
  await expect(page.getByTestId('field-error-inviteCode')).toHaveText('邀请码无效');
  await page.getByTestId('signup-invite').fill(code.toLowerCase());
  await page.getByTestId('signup-submit').click();
  await expect(page).toHaveURL(/\/appDown$/);

  await inviter.page.reload();
  const record = inviter.page.getByTestId('invite-record');
  await expect(record).toHaveCount(1);
  await expect(record).toContainText(`${friend.username.slice(0, 2)}***${friend.username.slice(-1)}`);
  await expect(record).toContainText('已注册');
  await friendContext.close();
  await inviter.context.close();
});
