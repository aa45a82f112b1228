import type { Browser } from '@playwright/test';
import { newAccount, registerByApi } from './account/account-helpers.ts';
import { signInByApi } from './account/sign-in-by-api.ts';
import { appFontLoaded, clippedBarText, forceFallbackFont, overflowingPlaceholders } from './support/fit-checks.ts';
import { expect, test } from './support/fixtures.ts';
import { setLanguage } from './wallet/wallet-helpers.ts';

const LANGUAGES = ['zh-CN', 'zh-TW', 'en', 'es'] as const;
const VISITOR_SCREENS = ['/signIn', '/login', '/forgetPassword'];
const FIELD = 'input:visible, textarea:visible';
/** Each screen and what shows once it has rendered (buy/sell has no field for a country it does not serve). */
const USER_SCREENS: [string, string][] = [
  ['/editLoginPwd', FIELD],
  ['/coinTopup/send', FIELD],
  ['/coinTopup/send?mode=send', FIELD],
  ['/convert', FIELD],
  ['/exchange', FIELD],
  ['/buySell', '[data-testid="trade-switch"]'],
];

/**
 * Every field's placeholder and every segment/tab label fits at 360 px in all four languages: once with
 * the app's own font (Roboto, shipped with the app), once with the font a browser falls back to when that
 * does not load (DejaVu Sans, Debian's default and the widest common Latin sans).
 */
async function walk(browser: Browser, fallback: boolean): Promise<string[]> {
  const account = newAccount(fallback ? 'fitdv' : 'place');
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  if (fallback) await forceFallbackFont(context);
  await registerByApi(context.request, account);
  const page = await context.newPage();
  const found: string[] = [];
  const check = async (label: string) => {
    expect(await appFontLoaded(page)).toBe(!fallback);
    for (const p of await page.evaluate(overflowingPlaceholders)) found.push(`${label}: ${p}`);
    for (const p of await page.evaluate(clippedBarText)) found.push(`${label}: ${p}`);
  };
  for (const language of LANGUAGES) {
    await page.goto('/signIn');
    await page.evaluate((lang) => window.localStorage.setItem('lang', lang), language);
    for (const path of VISITOR_SCREENS) {
      await page.goto(path);
      await expect(page.locator('input:visible').first()).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await check(`${language} ${path}`);
    }
  }
  // Signed in through the API (the login screen's own placeholders were walked above as a visitor's),
  // then one load of the app: its first sync stores the account's settings, which setLanguage waits for.
  await signInByApi(context, account.username, account.password);
  await page.goto('/coinTopup');
  for (const language of LANGUAGES) {
    // The account's own language is the setting that wins once logged in.
    await setLanguage(page, language);
    for (const [path, ready] of USER_SCREENS) {
      await page.goto(path);
      await expect(page.locator(ready).first()).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await check(`${language} ${path}`);
    }
  }
  await context.close();
  return found;
}

test.use({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 3 });
// Each walk visits 36 screens.
test.describe.configure({ timeout: 240_000 });

test('placeholders and segment labels fit at 360 px in all four languages, in the app font', async ({ browser }) => {
  expect(await walk(browser, false)).toEqual([]);
});

test('placeholders and segment labels fit at 360 px in all four languages, in the fallback font', async ({
  browser,
}) => {
  expect(await walk(browser, true)).toEqual([]);
});
