import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test';
import { E2E_DEV_URL } from '../support/e2e-env.ts';

/** A fresh, unique account for one test (user names are 3-20 [A-Za-z0-9_]). */
export function newAccount(tag: string) {
  const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.slice(-9);
  const username = `${tag}_${id}`.slice(0, 20);
  return { username, email: `${username.toLowerCase()}@example.com`, password: 'Passw0rd_e2e' };
}

interface MailMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

async function mailTo(request: APIRequestContext, email: string): Promise<MailMessage[]> {
  const response = await request.get(`${E2E_DEV_URL}/dev/mailbox.json`);
  const { messages } = (await response.json()) as { messages: MailMessage[] };
  return messages.filter((m) => m.to.toLowerCase() === email.toLowerCase());
}

/** The ids of the mail `email` has now: give them to readCode as `seen` before asking for a new code. */
export async function mailIdsOf(request: APIRequestContext, email: string): Promise<ReadonlySet<string>> {
  return new Set((await mailTo(request, email)).map((m) => m.id));
}

/**
 * The newest 6-digit code e-mailed to `email` after `since`, read from the dev mailbox (no SMTP_URL), and
 * not one of the `seen` messages: `since` has a second's slack, so without `seen` a code mailed just before
 * (the registration's) can be read while the new one is still in the outbox.
 */
export async function readCode(
  request: APIRequestContext,
  email: string,
  since = 0,
  seen: ReadonlySet<string> = new Set(),
): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const mine = (await mailTo(request, email)).filter(
          (m) => Date.parse(m.createdAt) >= since - 1000 && !seen.has(m.id),
        );
        // The code stands alone on its line (mail/templates.ts); a notice in the window (a deposit's
        // "12,100.000000 USDT") has six digits in a row too, and was once read as the code.
        code = mine.map((m) => /^(\d{6})\r?$/m.exec(m.text)?.[1]).find((found) => found !== undefined);
        return code;
      },
      { timeout: 15_000, message: `a code e-mailed to ${email}` },
    )
    .toBeTruthy();
  return code ?? '';
}

type Cookie = Awaited<ReturnType<APIRequestContext['storageState']>>['cookies'][number];
/**
 * The device cookie each account registered with (new-device confirmation, issue 31): a test that
 * registers through the API and then signs in from a page is the user's own browser, as if the
 * account had been created there, so it is a known device. A test of a new device skips this.
 */
const registeredDevices = new Map<string, Cookie>();

/** Gives `context` the device cookie `identifier` registered with (its sign-ins then skip the e-mail step). */
export async function carryRegisteredDevice(context: BrowserContext, identifier: string): Promise<void> {
  const device = registeredDevices.get(identifier.toLowerCase());
  if (device) await context.addCookies([device]);
}

/** Register through the API (fast path for tests that start from an existing account). */
export async function registerByApi(
  request: APIRequestContext,
  account: ReturnType<typeof newAccount>,
  country = 'ES',
) {
  const since = Date.now();
  const sent = await request.post('/api/auth/codes', { data: { email: account.email, purpose: 'register' } });
  expect(sent.status()).toBe(202);
  const code = await readCode(request, account.email, since);
  const registered = await request.post('/api/auth/register', {
    data: {
      username: account.username,
      country,
      password: account.password,
      confirmPassword: account.password,
      email: account.email,
      code,
      agreementAccepted: true,
    },
  });
  expect(registered.status()).toBe(201);
  const cookies = (await request.storageState()).cookies;
  const device = cookies.find((c) => c.name === 'did' || c.name === '__Host-did');
  if (device) for (const name of [account.username, account.email]) registeredDevices.set(name.toLowerCase(), device);
  // Registration signs in; end that session so only the test's own devices count.
  expect((await request.post('/api/auth/logout')).status()).toBe(204);
}

/** Choose the app language before any script runs. */
export async function useLanguage(page: Page, language: 'zh-CN' | 'zh-TW' | 'en' | 'es'): Promise<void> {
  await page.addInitScript((lang) => window.localStorage.setItem('lang', lang), language);
}

/**
 * Opens a pre-rendered landing screen (/login, /signIn) and waits until the app's code runs (it sets
 * <html lang> to the page's language): in another language than the markup's, boot.ts replaces the
 * markup with a fresh render. A fill's select-all, then its text, once lost the text when the page was
 * blank in between. The markup now stays until the app's fields take its place with their text, focus
 * and caret (host/src/fresh-render.ts), so typing at any point is kept; the swap may still be pending
 * when this returns.
 */
export async function gotoLanding(page: Page, path: '/login' | '/signIn'): Promise<void> {
  await page.goto(path);
  const language = await page.evaluate(() => window.localStorage.getItem('lang') ?? 'zh-CN');
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

/** Log in through the UI, from the browser the account registered in (its device cookie). */
export async function logIn(page: Page, identifier: string, password: string): Promise<void> {
  await carryRegisteredDevice(page.context(), identifier);
  await page.goto('/login');
  await page.getByTestId('login-identifier').fill(identifier);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page).not.toHaveURL(/\/login$/);
}
