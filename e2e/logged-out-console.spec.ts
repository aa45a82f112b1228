import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/fixtures.ts';
import { watchNetwork } from './support/network-watch.ts';

/**
 * Issue 30 item 7: a logged-out visit to any page leaves the console clean. "Am I signed in?" is
 * asked through GET /api/session (200, `{ user: null }` for a visitor), never through a call that
 * answers 401; a login-required page sends the visitor to /login, also without a 401. Every route the
 * host and the remotes declare is visited (read from their route tables, so a new route is walked too),
 * and no console error or page error at all is accepted: not even the 401s the other specs tolerate.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
/** Every routes.ts of the host and the remotes (a remote's features may declare their own). */
function routeFiles(): string[] {
  const roots = ['host/src', ...readdirSync(path.join(ROOT, 'remotes')).map((remote) => `remotes/${remote}/src`)];
  return roots.flatMap((root) =>
    (readdirSync(path.join(ROOT, root), { recursive: true }) as string[])
      .filter((file) => file === 'routes.ts' || file.endsWith('/routes.ts'))
      .map((file) => path.join(root, file)),
  );
}

function declaredPaths(): string[] {
  const paths = new Set<string>(['/']);
  for (const file of routeFiles()) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    for (const match of text.matchAll(/path:\s*'(\/[^']*)'/g)) if (match[1]) paths.add(match[1]);
  }
  return [...paths].filter((p) => !p.includes(':')).sort();
}

const PATHS = declaredPaths();

// The walks below run side by side (one test each on the two workers), each in its own fresh, logged-out
// browser context (Playwright's page fixture): every route is still a page load of a visitor.
test.describe.configure({ mode: 'parallel' });
/** The walk in this many tests over every n-th route (the spec's longest test was the whole 63-route walk). */
const SLICES = 3;

/** A route has settled once nothing is in flight for this long, before and after the page's next frames. */
const QUIET_MS = 200;

test('the route tables were read (the walk is not empty)', () => {
  expect(PATHS.length).toBeGreaterThan(30);
  expect(PATHS).toEqual(expect.arrayContaining(['/signIn', '/login', '/rewards', '/mail', '/coinTopup', '/buySell']));
});

for (let slice = 0; slice < SLICES; slice += 1) {
  const paths = PATHS.filter((_, index) => index % SLICES === slice);
  test(`a logged-out walk of every route logs no console error and no 401 (part ${slice + 1} of ${SLICES})`, async ({
    page,
    problems,
  }) => {
    test.setTimeout(paths.length * 10_000);
    // Settled: every call the route made, a late 401 included, has answered before the next page load
    // (`networkidle` waited a fixed 500 ms for the same). Loading screens are not waited out: a screen may
    // show one while a call it waits for is refused or never made.
    const network = watchNetwork(page, { quietMs: QUIET_MS, pollMs: 50 });
    const unauthorised: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 401) unauthorised.push(`${response.request().method()} ${response.url()}`);
    });
    const found: string[] = [];
    for (const target of paths) {
      await page.goto(target);
      await expect(page.getByTestId('app-frame')).toBeVisible();
      await network.settled();
      found.push(...problems.list.splice(0).map((problem) => `${target}: ${problem}`));
      found.push(...unauthorised.splice(0).map((call) => `${target}: 401 ${call}`));
    }
    // All at once: one run names every page that still logs something.
    expect(found).toEqual([]);
  });
}
