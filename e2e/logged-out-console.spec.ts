import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/fixtures.ts';

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

test('the route tables were read (the walk is not empty)', () => {
  expect(PATHS.length).toBeGreaterThan(30);
  expect(PATHS).toEqual(expect.arrayContaining(['/signIn', '/login', '/rewards', '/mail', '/coinTopup', '/buySell']));
});

test('a logged-out walk of every route logs no console error and no 401', async ({ page, problems }) => {
  test.setTimeout(PATHS.length * 10_000);
  const unauthorised: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 401) unauthorised.push(`${response.request().method()} ${response.url()}`);
  });
  const found: string[] = [];
  for (const target of PATHS) {
    await page.goto(target);
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('app-frame')).toBeVisible();
    found.push(...problems.list.splice(0).map((problem) => `${target}: ${problem}`));
    found.push(...unauthorised.splice(0).map((call) => `${target}: 401 ${call}`));
  }
  // All at once: one run names every page that still logs something.
  expect(found).toEqual([]);
});
