import { type Browser, type BrowserContext, expect } from '@playwright/test';
import { carryRegisteredDevice, newAccount, registerByApi } from './account-helpers.ts';

/**
 * Signs `context` in through the API, from the browser the account registered in (its device cookie):
 * for specs whose subject is not the sign-in screen. The session cookie lands in the context, so its
 * pages open signed in; the sign-in request carries the context's user agent, as the screen's would.
 * It spares a load of the sign-in screen and the redirect after it (seconds a test on a loaded machine);
 * the screen itself is covered by e2e/account/register, validation, security and passkeys.
 */
export async function signInByApi(context: BrowserContext, identifier: string, password: string): Promise<void> {
  await carryRegisteredDevice(context, identifier);
  const signedIn = await context.request.post('/api/auth/login', { data: { identifier, password } });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
}

/** A fresh account, registered and signed in through the API, with a page in its own context. */
export async function signedInByApi(browser: Browser, tag: string, country = 'ES') {
  const account = newAccount(tag);
  const context = await browser.newContext();
  await registerByApi(context.request, account, country);
  await signInByApi(context, account.username, account.password);
  const page = await context.newPage();
  return { account, context, page };
}
