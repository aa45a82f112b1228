import { execFile } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from '@playwright/test';
import { bucketOf } from '../server/src/http/remote-canary.ts';
import { E2E_BROTLI_QUALITY, E2E_PORT, E2E_STATIC_DIR } from './support/e2e-env.ts';
import { expect, REMOTE_LOAD_FAILED_ZH, test } from './support/fixtures.ts';
import { copyOfLive, relabel, throwOnLoad } from './support/remote-copies.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const APP = `http://127.0.0.1:${E2E_PORT}`;

async function script(name: 'deploy' | 'rollback' | 'promote' | 'canary', args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      DEPLOY_UNCHECKED_WITHOUT_MAPS: '1',
      DEPLOY_BROTLI_QUALITY: E2E_BROTLI_QUALITY,
      STATIC_DIR: E2E_STATIC_DIR,
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

const storedRegistry = async () =>
  JSON.parse(await readFile(path.join(E2E_STATIC_DIR, 'remotes.json'), 'utf8')) as {
    bucketSalt?: string;
    remotes: Record<string, { version: string }>;
  };

/** Two anonymous visitor ids on either side of 50 % for the mail remote under the registry's salt. */
function visitorsAround50(salt: string): { inside: string; outside: string } {
  const ids = Array.from({ length: 64 }, (_, i) => `e2e-canary-visitor-${String(i).padStart(3, '0')}`);
  const inside = ids.find((id) => bucketOf(`a:${id}`, 'mail', salt) < 50);
  const outside = ids.find((id) => bucketOf(`a:${id}`, 'mail', salt) >= 50);
  if (!inside || !outside) throw new Error('no visitor pair found');
  return { inside, outside };
}

/** A visitor with that anonymous id (their own context: own cookie, own cache). */
async function visitor(browser: Browser, visitorId: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: APP });
  await context.addCookies([{ name: 'rbid', value: visitorId, url: APP }]);
  return context.newPage();
}

/**
 * `npm run deploy -- mail --from <copy> --canary 50 ...` of a copy of the live mail build (no build):
 * showing `label` as its build id, and made to throw as it loads when `throws`.
 */
async function deployCanaryCopy(label: string, flags: string[], throws = false): Promise<void> {
  const copy = await copyOfLive('mail');
  try {
    const shown = await buildIdOf(copy.dir);
    await relabel(copy.dir, shown, label);
    if (throws) await throwOnLoad(copy.dir, 'e2e: this canary throws on load');
    await script('deploy', ['mail', '--from', copy.dir, '--canary', '50', ...flags]);
  } finally {
    await rm(copy.dir, { recursive: true, force: true });
  }
}

/** The build id a mail build shows (the one string its hub passes as buildId). */
async function buildIdOf(dir: string): Promise<string> {
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.js')) continue;
    const found = /buildId:"([^"]+)"/.exec(await readFile(path.join(dir, name), 'utf8'));
    if (found?.[1]) return found[1];
  }
  throw new Error(`no build id in ${dir}`);
}

/** The mail build the visitor gets on a fresh page load. */
async function buildSeenBy(page: Page): Promise<string> {
  await page.goto('/mail');
  const buildId = page.getByTestId('mail-hub').getByTestId('build-id');
  await expect(buildId).toBeAttached();
  return (await buildId.textContent()) ?? '';
}

test('a 50 % canary reaches only the visitors in its bucket; rollback ends it; promote gives it to all (issue 35)', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const before = (await storedRegistry()).remotes.mail?.version as string;
  try {
    await test.step('deploy a 50 % canary (a copy of the live build, relabelled: no build)', () =>
      deployCanaryCopy('e2e-canary', []));
    const canary = (await storedRegistry()).remotes.mail as { canary?: { version: string } };
    const canaryVersion = canary.canary?.version as string;
    const ids = visitorsAround50((await storedRegistry()).bucketSalt as string);
    const inside = await visitor(browser, ids.inside);
    const outside = await visitor(browser, ids.outside);
    await test.step('only the visitor in the bucket gets it, on every visit', async () => {
      expect(await buildSeenBy(inside)).toContain('e2e-canary');
      expect(await buildSeenBy(outside)).not.toContain('e2e-canary');
      expect(await buildSeenBy(inside)).toContain('e2e-canary');
      const answer = await fetch(`${APP}/remotes.json`, { headers: { cookie: `rbid=${ids.inside}` } });
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
      expect(await answer.text()).not.toMatch(/canary|bucketSalt|percent/);
    });
    await test.step('rollback ends the canary', async () => {
      await script('rollback', ['mail']);
      expect(await buildSeenBy(inside)).not.toContain('e2e-canary');
    });
    await test.step('promote gives it to everyone', async () => {
      await script('canary', ['start', 'mail', canaryVersion, '50']);
      await script('promote', ['mail']);
      expect(await buildSeenBy(outside)).toContain('e2e-canary');
      expect(await buildSeenBy(inside)).toContain('e2e-canary');
    });
  } finally {
    await script('rollback', ['mail', before]).catch(() => script('rollback', ['mail']));
    if ((await storedRegistry()).remotes.mail?.version !== before) await script('rollback', ['mail', before]);
  }
});

test('a canary that throws on load is rolled back by the server on its own; its visitors get the stable (issue 35)', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const before = (await storedRegistry()).remotes.mail?.version as string;
  try {
    // Judged after 2 load attempts, rolled back past 0 points over the stable's failure rate; the
    // server's canary watch looks every 2 s (server/src/modules/client-events/canary-watch.ts).
    // A version of its own each run: the watch remembers the versions it rolled back (canary_auto_rollbacks).
    const label = `e2e-throws-${Date.now().toString(36)}`;
    await deployCanaryCopy(label, ['--auto-rollback', '--min-loads', '2', '--margin', '0'], true);
    const ids = visitorsAround50((await storedRegistry()).bucketSalt as string);
    const inside = await visitor(browser, ids.inside);
    await test.step('the visitor in the bucket gets the retry state; each load failure is reported', async () => {
      for (let attempt = 0; attempt < 2; attempt++) {
        await inside.goto('/mail');
        await expect(inside.getByTestId('remote-load-failed')).toHaveText(REMOTE_LOAD_FAILED_ZH);
        // The host sends its reports each second (and on leaving the page).
        await inside.waitForTimeout(1_200);
      }
    });
    await test.step('the watch ends the canary: the same visitor gets the stable version', async () => {
      await expect
        .poll(async () => (await storedRegistry()).remotes.mail as { canary?: unknown }, { timeout: 30_000 })
        .not.toHaveProperty('canary');
      await inside.goto('/mail');
      await expect(inside.getByTestId('mail-hub').getByTestId('build-id')).toBeAttached();
      expect(await buildSeenBy(inside)).not.toContain(label);
    });
  } finally {
    const entry = (await storedRegistry()).remotes.mail as { version: string; canary?: unknown };
    if (entry.canary) await script('rollback', ['mail']);
    if (entry.version !== before) await script('rollback', ['mail', before]);
  }
});
