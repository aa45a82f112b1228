import type { Page } from '@playwright/test';
import { HOST_USES, remoteTargets } from '../scripts/lib/remote-contracts.ts';
import { newAccount, registerByApi } from './account/account-helpers.ts';
import { signInByApi } from './account/sign-in-by-api.ts';
import { expect, navigateInApp, test, unexpectedProblems } from './support/fixtures.ts';

/**
 * Issue 35, contract tests in a browser: every module each remote exposes (as its rspack.config.ts
 * declares them) is loaded by the host's own federation runtime and mounted inside the host's real
 * providers (its router, query client, i18n and stores): every screen path of the exposed routes, for
 * a signed-in user. Any federation runtime error fails the test: a console error, an uncaught page
 * error, the area's load-failure state, or a load-failure report the host sends.
 */

interface FederationGlobal {
  __FEDERATION__: {
    __INSTANCES__: { name: string; loadRemote(id: string): Promise<unknown> }[];
  };
}

/** The screen paths of a loaded remote's exposed routes, read from the host's federation instance. */
function exposedPaths(page: Page, id: string): Promise<string[]> {
  return page.evaluate(async (remoteId) => {
    const host = (window as unknown as FederationGlobal).__FEDERATION__.__INSTANCES__.find((i) => i.name === 'host');
    if (!host) throw new Error('the host federation instance is not there');
    const loaded = (await host.loadRemote(remoteId)) as { default?: unknown };
    const module = (loaded.default ?? loaded) as { routes: { path: string }[] };
    return module.routes.map((route) => route.path);
  }, id);
}

/** The area has mounted: no spinner, no failure state, something rendered. */
async function settled(page: Page, path: string): Promise<void> {
  await expect(page.locator('.page-loading'), `${path} still loading`).toHaveCount(0);
  await expect(page.getByTestId('remote-load-failed'), `${path} failed to load`).toHaveCount(0);
  await expect(page.locator('#root')).not.toBeEmpty();
}

test('every exposed module of every remote mounts in the host providers without a federation error', async ({
  page,
  problems,
}) => {
  test.setTimeout(120_000);
  const failureReports: string[] = [];
  let reportsSeen = 0;
  page.on('request', (request) => {
    if (!request.url().endsWith('/api/client-events')) return;
    reportsSeen += 1;
    const body = request.postData() ?? '';
    if (body.includes('"kind":"failure"')) failureReports.push(body);
  });
  const account = newAccount('mounts');
  await registerByApi(page.context().request, account);
  // Signed in through the API, then one load of the wallet: the walk below navigates inside the app.
  await signInByApi(page.context(), account.username, account.password);
  await page.goto('/coinTopup');
  const registry = (await (await page.request.get('/remotes.json')).json()) as {
    remotes: Record<string, { routes: string[] }>;
  };

  const mounted: string[] = [];
  for (const target of await remoteTargets()) {
    // An exposed module the host does not know how to mount is a contract breach of its own.
    expect(HOST_USES[target.expose], `${target.remote} exposes ${target.expose}, unknown to the host`).toBeDefined();
    const first = registry.remotes[target.remote]?.routes[0];
    expect(first, `${target.remote} is not in the registry`).toBeDefined();
    await navigateInApp(page, first as string);
    await settled(page, first as string);
    for (const path of await exposedPaths(page, `${target.remote}/${target.expose.replace(/^\.\//, '')}`)) {
      // A path with a parameter needs a record of its own (covered by the remote's own specs).
      if (path.includes(':') || path.includes('*')) continue;
      await navigateInApp(page, path);
      await settled(page, path);
      mounted.push(path);
    }
  }
  expect(mounted.length).toBeGreaterThan(10);
  // Reports wait up to a second in the host's queue (load-reports.ts); its pagehide handler sends what is queued at
  // once, as when the user leaves. Send them now, counting the report requests that go out, and wait until each
  // was seen here before concluding there were no failure reports (it slept 1.5 s for the queue before).
  const before = reportsSeen;
  const flushed = await page.evaluate(() => {
    const send = window.fetch;
    let requests = 0;
    window.fetch = (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith('/api/client-events')) requests += 1;
      return send(input, init);
    };
    try {
      window.dispatchEvent(new Event('pagehide'));
    } finally {
      window.fetch = send;
    }
    return requests;
  });
  await expect.poll(() => reportsSeen - before).toBeGreaterThanOrEqual(flushed);
  expect(failureReports).toEqual([]);
  expect(unexpectedProblems(problems)).toEqual([]);
});
