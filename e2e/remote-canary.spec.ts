import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from '@playwright/test';
import { bucketOf } from '../server/src/http/remote-canary.ts';
import { E2E_PORT, E2E_STATIC_DIR } from './support/e2e-env.ts';
import { expect, test } from './support/fixtures.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const APP = `http://127.0.0.1:${E2E_PORT}`;

async function script(name: 'deploy' | 'rollback' | 'promote' | 'canary', args: string[]): Promise<string> {
  const { stdout } = await run('npx', ['tsx', `scripts/${name}.ts`, ...args], {
    cwd: ROOT,
    env: { ...process.env, STATIC_DIR: E2E_STATIC_DIR },
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
  test.setTimeout(420_000);
  const before = (await storedRegistry()).remotes.mail?.version as string;
  try {
    await test.step('deploy a 50 % canary (the one build of this spec)', () =>
      script('deploy', ['mail', '--build-id', 'e2e-canary', '--canary', '50']));
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
