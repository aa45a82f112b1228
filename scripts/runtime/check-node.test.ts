import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/** scripts/check-node.mjs: npm start and npm test refuse a Node older than engines.node, saying what to do. */
const ROOT = path.resolve(import.meta.dirname, '../..');
const CHECK = path.join(ROOT, 'scripts/check-node.mjs');
const run = promisify(execFile);
const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
const minimum = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(pkg.engines.node)?.slice(1).map(Number) ?? [];

async function versionOf(node: string): Promise<number[]> {
  const { stdout } = await run(node, ['-p', 'process.versions.node']);
  return stdout.trim().split('.').map(Number);
}
const older = (a: number[], b: number[]) => {
  const i = a.findIndex((n, k) => n !== b[k]);
  return i >= 0 && (a[i] ?? 0) < (b[i] ?? 0);
};

// The machine's own Node, when it is older than the project's (Debian's /usr/bin/node here).
const systemNode = ['/usr/bin/node', '/usr/local/bin/node'].find((p) => existsSync(p));
const systemIsOlder = systemNode !== undefined && older(await versionOf(systemNode), minimum);

describe('check-node', () => {
  it('engines.node reads ">=X.Y.Z" and npm start/test run the check first', () => {
    expect(minimum).toHaveLength(3);
    expect(pkg.scripts.start).toMatch(/^node scripts\/check-node\.mjs && /);
    expect(pkg.scripts.test).toMatch(/^node scripts\/check-node\.mjs && /);
  });

  it('passes on the Node the tests run on', async () => {
    await expect(run(process.execPath, [CHECK])).resolves.toBeDefined();
  });

  it.skipIf(!systemIsOlder)('refuses an older Node with a message naming both versions and the way out', async () => {
    const failed = await run(systemNode as string, [CHECK]).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain(`needs Node ${pkg.engines.node}`);
    expect(failed?.stderr).toContain('node_modules/.bin');
  });
});
