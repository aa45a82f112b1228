import { logIn, newAccount, registerByApi } from './account/account-helpers.ts';
import { expect, test } from './support/fixtures.ts';
import { setLanguage } from './wallet/wallet-helpers.ts';

const LANGUAGES = ['zh-CN', 'zh-TW', 'en', 'es'] as const;
const VISITOR_SCREENS = ['/signIn', '/login', '/forgetPassword'];
const USER_SCREENS = ['/editLoginPwd', '/coinTopup/send', '/coinTopup/send?mode=send', '/convert', '/exchange'];

/** Placeholders wider than their field, measured with the field's own font (a canvas measures the text). */
function overflowingPlaceholders(): string[] {
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d');
  if (!context) return ['no canvas'];
  const fields = [
    ...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[placeholder], textarea[placeholder]'),
  ];
  const problems: string[] = [];
  for (const field of fields) {
    if (field.offsetParent === null || !field.placeholder) continue;
    const style = getComputedStyle(field);
    context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const textWidth = context.measureText(field.placeholder).width;
    const room = field.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    // A textarea wraps its placeholder; an input cuts it.
    if (field.tagName === 'INPUT' && textWidth > room + 1)
      problems.push(`"${field.placeholder}" ${Math.round(textWidth)} > ${Math.round(room)}`);
  }
  return problems;
}

test.use({ viewport: { width: 360, height: 740 } });

test('placeholders fit their fields at 360 px in all four languages', async ({ browser }) => {
  const account = newAccount('place');
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  await registerByApi(context.request, account);
  const page = await context.newPage();
  const found: string[] = [];
  for (const language of LANGUAGES) {
    await page.goto('/signIn');
    await page.evaluate((lang) => window.localStorage.setItem('lang', lang), language);
    for (const path of VISITOR_SCREENS) {
      await page.goto(path);
      await expect(page.locator('input:visible').first()).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      found.push(...(await page.evaluate(overflowingPlaceholders)).map((p) => `${language} ${path}: ${p}`));
    }
  }
  await logIn(page, account.username, account.password);
  for (const language of LANGUAGES) {
    // The account's own language is the setting that wins once logged in.
    await setLanguage(page, language);
    for (const path of USER_SCREENS) {
      await page.goto(path);
      await expect(page.locator('input:visible, textarea:visible').first()).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      found.push(...(await page.evaluate(overflowingPlaceholders)).map((p) => `${language} ${path}: ${p}`));
    }
  }
  expect(found).toEqual([]);
  await context.close();
});
