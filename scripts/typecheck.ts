/**
 * npm run typecheck: `tsc --noEmit` for every workspace and the root tsconfig
 * (scripts, e2e, configs); every failure is reported, the exit code is non-zero if any failed.
 * tsc uses one core: two projects run at once (the CI machine has two cores), each one's output
 * printed whole when it ends so that errors of two projects do not interleave.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
/** At most this many tsc processes at once: each holds one project's program (~1 GB for the server). */
const MAX_PARALLEL = Math.max(1, Math.min(2, availableParallelism()));

const remotes = readdirSync(path.join(ROOT, 'remotes'))
  .map((name) => `remotes/${name}`)
  .sort();
// Largest first, so that the long server check does not start last and run alone.
const projects = ['server', 'host', 'shared-state', 'shared-ui', 'ops-console', ...remotes, '.'].filter((dir) =>
  existsSync(path.join(ROOT, dir, 'tsconfig.json')),
);

function check(dir: string): Promise<boolean> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSC, '-p', path.join(dir, 'tsconfig.json'), '--noEmit', '--pretty'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
    });
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      process.stdout.write(Buffer.concat(output));
      console.log(`[typecheck] ${ok ? 'ok  ' : 'FAIL'} ${dir === '.' ? 'root' : dir} (${seconds}s)`);
      resolve(ok);
    });
  });
}

const failed: string[] = [];
const queue = [...projects];
async function worker(): Promise<void> {
  for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
    if (!(await check(dir))) failed.push(dir === '.' ? 'root' : dir);
  }
}
await Promise.all(Array.from({ length: MAX_PARALLEL }, worker));
if (failed.length > 0) {
  console.error(`[typecheck] failed: ${failed.sort().join(', ')}`);
  process.exit(1);
}
