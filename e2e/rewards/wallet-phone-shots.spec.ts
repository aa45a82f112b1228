import path from 'node:path';
import { logIn, newAccount, registerByApi } from '../account/account-helpers.ts';
import { expect, test } from '../support/fixtures.ts';
import { readChains, setLanguage } from '../wallet/wallet-helpers.ts';
import { installRecordingWallet } from './wallet-mock.ts';

/**
 * Issue 33's screens at 390x844 in the four languages, for a person to look at: only with
 * SHOTS_DIR=<folder> (skipped in the suite). The "Open in" list, the deposit screen's payment request
 * and the login screen inside a wallet's browser.
 */
const SHOTS_DIR = process.env.SHOTS_DIR;
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const LANGUAGES = ['zh-CN', 'zh-TW', 'en', 'es'] as const;

test.describe.configure({ timeout: 240_000 });

test('issue 33 screens in four languages (SHOTS_DIR only)', async ({ browser }) => {
  test.skip(!SHOTS_DIR, 'set SHOTS_DIR to take the screenshots');
  const ethereum = readChains()?.ethereum;
  if (!SHOTS_DIR || !ethereum) return;
  const options = { userAgent: IPHONE_UA, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
  const shot = (name: string) => path.join(SHOTS_DIR, name);
  const account = newAccount('shots');
  const context = await browser.newContext(options);
  await registerByApi(context.request, account);
  const page = await context.newPage();
  await logIn(page, account.username, account.password);
  for (const lang of LANGUAGES) {
    await setLanguage(page, lang);
    await page.goto('/sign');
    await expect(page.getByTestId('open-in-wallet')).toBeVisible();
    await page.screenshot({ path: shot(`open-in-sign-${lang}.png`), fullPage: true });
    await page.goto('/coinTopup/deposit?coin=USDT&network=ethereum');
    await page.getByTestId('payment-request-open').click();
    await page.getByTestId('payment-request-amount').fill('20');
    await page.getByTestId('payment-request-copy').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('payment-request-qr')).toBeVisible();
    await page.screenshot({ path: shot(`deposit-payment-request-${lang}.png`) });
    await page.getByTestId('wallet-deposit-open').click();
    await expect(page.getByTestId('open-in-wallet')).toBeVisible();
    await page.getByTestId('open-in-wallet').scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot(`deposit-open-in-${lang}.png`) });
  }
  await context.close();

  // The login screen inside OKX Wallet's browser (window.okxwallet on a phone).
  for (const lang of LANGUAGES) {
    const inApp = await browser.newContext(options);
    const p = await inApp.newPage();
    await installRecordingWallet(p, ethereum, undefined, undefined, { kind: 'named', path: ['okxwallet'] });
    await p.addInitScript((l) => window.localStorage.setItem('lang', l), lang);
    await p.goto('/login');
    await expect(p.getByTestId('login-in-app-browser')).toBeVisible();
    await p.screenshot({ path: shot(`login-in-app-${lang}.png`) });
    await inApp.close();
  }
});
