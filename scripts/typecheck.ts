/**
 * npm run typecheck: `tsc --noEmit` for every workspace and the root tsconfig
 * (scripts, e2e, configs), one after another; every failure is reported, the
 * exit code is non-zero if any failed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const remotes = readdirSync(path.join(ROOT, 'remotes'))
  .map((name) => `remotes/${name}`)
  .sort();
const projects = ['shared-state', 'shared-ui', 'host', 'ops-console', ...remotes, 'server', '.'].filter((dir) =>
  existsSync(path.join(ROOT, dir, 'tsconfig.json')),
);

const failed: string[] = [];
for (const dir of projects) {
  const started = performance.now();
  const result = spawnSync(process.execPath, [TSC, '-p', path.join(dir, 'tsconfig.json'), '--noEmit'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  console.log(`[typecheck] ${ok ? 'ok  ' : 'FAIL'} ${dir === '.' ? 'root' : dir} (${seconds}s)`);
  if (!ok) failed.push(dir === '.' ? 'root' : dir);
}
if (failed.length > 0) {
  console.error(`[typecheck] failed: ${failed.join(', ')}`);
  process.exit(1);
}
