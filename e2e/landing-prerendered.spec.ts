import type { Page } from '@playwright/test';
import { expect, test, unexpectedProblems } from './support/fixtures.ts';

/**
 * The landing screens are served as pre-rendered HTML to phones in the default language and hydrated
 * (scripts/lib/prerender.ts, server/src/http/prerendered-page.ts): the form paints before the JavaScript,
 * React takes over the same nodes (no hydration error, nothing replaced, no layout shift), and the other
 * languages still switch live.
 */

declare global {
  interface Window {
    __layoutShift?: number;
    __formsReplaced?: number;
  }
}

/** Sums layout shifts and counts removed landing forms (a failed hydration replaces the server's nodes). */
async function watchLanding(page: Page) {
  await page.addInitScript(() => {
    window.__layoutShift = 0;
    window.__formsReplaced = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) window.__layoutShift = (window.__layoutShift ?? 0) + entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.removedNodes) {
          if (node instanceof Element && (node.matches('form') || node.querySelector('form'))) {
            window.__formsReplaced = (window.__formsReplaced ?? 0) + 1;
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

/** React has taken the pre-rendered form over (its nodes carry React's fiber keys once hydrated). */
async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const form = document.querySelector('#root form');
    return form !== null && Object.keys(form).some((key) => key.startsWith('__reactFiber$'));
  });
}

/** The HTML the server sends this browser for `path` (its cookies, user agent and languages). */
async function servedHtml(page: Page, path: string): Promise<string> {
  const browser = await page.evaluate(() => ({ userAgent: navigator.userAgent, languages: navigator.languages }));
  const response = await page.request.get(path, {
    headers: { accept: 'text/html', 'user-agent': browser.userAgent, 'accept-language': browser.languages.join(',') },
  });
  expect(response.status()).toBe(200);
  return response.text();
}

for (const { path, heading, testId } of [
  { path: '/signIn', heading: '注册', testId: 'signup-screen' },
  { path: '/login', heading: '登录', testId: 'login-screen' },
]) {
  test(`${path} paints from the HTML without JavaScript, in zh-CN, with the language switch`, async ({ browser }) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      locale: 'zh-CN',
      viewport: { width: 390, height: 844 },
      isMobile: true,
      userAgent: test.info().project.use.userAgent,
    });
    const page = await context.newPage();
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect(page.getByTestId(testId).locator('form')).toBeVisible();
    await expect(page.getByTestId('language-switch-select')).toHaveValue('zh-CN');
    // The landing CSS is in the page (no stylesheet to wait for), and nothing is preloaded: before the first
    // paint the browser fetches no font and no app chunk (each was on the path to the LCP under throttling).
    expect(await page.locator('link[rel="stylesheet"]').count()).toBe(0);
    expect(await page.locator('link[rel="preload"]').count()).toBe(0);
    expect(
      await page.locator('style').evaluateAll((styles) => styles.some((s) => s.textContent?.includes('@font-face'))),
    ).toBe(false);
    await context.close();
  });

  test(`${path} hydrates the pre-rendered form: same nodes, no console error, no layout shift`, async ({
    page,
    problems,
  }) => {
    await watchLanding(page);
    await page.goto(path);
    await expect(page.locator('#root')).toHaveAttribute('data-prerendered', path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await hydrated(page);
    // The server's nodes are live: typing goes through React, and the eye shows the password.
    const field = page.getByTestId(testId).locator('input').first();
    await field.fill('hydrated_user');
    await expect(field).toHaveValue('hydrated_user');
    await page.locator('#password').fill('secret-123');
    await page.locator('.account-input__eye').first().click();
    await expect(page.locator('#password')).toHaveAttribute('type', 'text');
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => window.__formsReplaced)).toBe(0);
    expect(await page.evaluate(() => window.__layoutShift)).toBeLessThan(0.01);
    expect(unexpectedProblems(problems)).toEqual([]);
  });
}

test('after hydration the language switches live, and the choice picks the page the server sends', async ({
  page,
  problems,
}) => {
  await page.goto('/signIn');
  await expect(page.locator('#root')).toHaveAttribute('data-prerendered', '/signIn');
  await hydrated(page);
  await page.getByTestId('language-switch-select').selectOption('en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign up');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  // The remembered choice travels in a cookie: the zh-CN page is not sent to this browser any more.
  expect(await servedHtml(page, '/signIn')).not.toContain('data-prerendered');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign up');
  await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered', /./);
  await page.getByTestId('language-switch-select').selectOption('zh-CN');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('注册');
  expect(await servedHtml(page, '/signIn')).toContain('data-prerendered="/signIn"');
  expect(unexpectedProblems(problems)).toEqual([]);
});

test('typing into the zh-CN markup while the app starts in English keeps the text, the focus and the caret', async ({
  page,
  problems,
}) => {
  // The language is this browser's own choice (not sent to the server), so the zh-CN markup comes and the
  // app renders afresh in English (host/src/fresh-render.ts). The login screen's chunk is held back, so the
  // app's code runs well before its form exists: the markup must stay typeable until then.
  await page.addInitScript(() => window.localStorage.setItem('lang', 'en'));
  let heldBack = 0;
  await page.route('**/*.js', async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (body.includes('login-identifier')) {
      heldBack += 1;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    }
    await route.fulfill({ response, body });
  });
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('登录');
  await page.getByTestId('login-identifier').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  // Where the keys go is wherever the focus is: before the fix, nowhere (the markup was gone).
  await page.keyboard.type('bob_2');
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in');
  const field = page.getByTestId('login-identifier');
  await expect(field).toHaveValue('bob_2');
  await expect(field).toBeFocused();
  expect(await field.evaluate((el: HTMLInputElement) => [el.selectionStart, el.selectionEnd])).toEqual([4, 5]);
  // The app's own #root now (the markup's said which pre-rendered path it held).
  await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered', /./);
  expect(heldBack).toBeGreaterThan(0);
  expect(unexpectedProblems(problems)).toEqual([]);
});

test.describe('a Spanish-speaking phone', () => {
  test.use({ locale: 'es-ES' });

  test('gets the plain page (no Chinese form first) and the Spanish screen', async ({ page }) => {
    await page.goto('/signIn');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Registrarse');
    await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered', /./);
    expect(await servedHtml(page, '/signIn')).not.toContain('data-prerendered');
  });
});

test('@desktop a desktop browser gets the plain page and the centred frame', async ({ page }) => {
  await page.goto('/signIn');
  await expect(page.getByTestId('app-frame')).toHaveAttribute('data-framed', 'true');
  await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered', /./);
  expect(await servedHtml(page, '/signIn')).not.toContain('data-prerendered');
});

test('an invite link fills the code in after hydration', async ({ page }) => {
  await page.goto('/signIn?invite=ABC123');
  await expect(page.locator('#root')).toHaveAttribute('data-prerendered', '/signIn');
  await hydrated(page);
  await expect(page.getByTestId('signup-invite')).toHaveValue('ABC123');
});
