/**
 * npm run typecheck: `tsc --noEmit` for every workspace and the root tsconfig
 * (scripts, e2e, configs); every failure is reported, the exit code is non-zero if any failed.
 * tsc uses one core: two projects run at once (the CI machine has two cores), each one's output
 * printed whole when it ends so that errors of two projects do not interleave.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { groupWorkspaces, type TypecheckUnit } from './lib/typecheck-groups.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
/**
 * The native compiler (TypeScript 7, installed as `typescript-native`): the same checker as the 5.9 one ported to
 * Go, about half the CPU here (scripts/typecheck.ts with 5.9: ~180 s of CPU; with 7: ~90 s). `typescript` 5.9
 * stays installed for the tools that load its JavaScript API (openapi-typescript, typecheck-groups.ts, Module
 * Federation, viem's peers), which 7.0 does not ship. TYPECHECK_TSC=<path to a tsc> checks with another compiler.
 */
const TSC = process.env.TYPECHECK_TSC ?? path.join(ROOT, 'node_modules', 'typescript-native', 'bin', 'tsc');
/** At most this many tsc processes at once: each holds one project's program (~1 GB for the server). */
const MAX_PARALLEL = Math.max(1, Math.min(2, availableParallelism()));

const remotes = readdirSync(path.join(ROOT, 'remotes'))
  .map((name) => `remotes/${name}`)
  .sort();
// Largest first, so that the long server check does not start last and run alone.
const projects = ['server', 'host', 'shared-state', 'shared-ui', 'ops-console', ...remotes, '.'].filter((dir) =>
  existsSync(path.join(ROOT, dir, 'tsconfig.json')),
);

/**
 * Workspaces whose compiler options are the same are checked in ONE tsc program (scripts/lib/typecheck-groups.ts):
 * each remote's program used to type-check shared-state, shared-ui, React and antd-mobile again, so the five
 * remotes and shared-state cost 90 s of tsc where one program takes about a third of that.
 */
const GROUP_DIR = path.join(ROOT, 'node_modules', '.cache', 'typecheck');
const units: TypecheckUnit[] = groupWorkspaces(ROOT, projects);

function configOf(unit: TypecheckUnit): string {
  if (!unit.files) return path.join(unit.dirs[0] as string, 'tsconfig.json');
  mkdirSync(GROUP_DIR, { recursive: true });
  const file = path.join(GROUP_DIR, `tsconfig.${unit.dirs.map((d) => d.replaceAll('/', '-')).join('+')}.json`);
  // The first member's options (all members' are equal), every member's files.
  const config = { extends: path.join(ROOT, unit.dirs[0] as string, 'tsconfig.json'), include: [], files: unit.files };
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

function check(unit: TypecheckUnit): Promise<boolean> {
  const started = performance.now();
  const label = unit.dirs.map((dir) => (dir === '.' ? 'root' : dir)).join(' + ');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSC, '-p', configOf(unit), '--noEmit', '--pretty'], {
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
      console.log(`[typecheck] ${ok ? 'ok  ' : 'FAIL'} ${label} (${seconds}s)`);
      resolve(ok);
    });
  });
}

const failed: string[] = [];
const queue = [...units];
async function worker(): Promise<void> {
  for (let unit = queue.shift(); unit !== undefined; unit = queue.shift()) {
    if (!(await check(unit))) failed.push(unit.dirs.map((dir) => (dir === '.' ? 'root' : dir)).join(' + '));
  }
}
await Promise.all(Array.from({ length: MAX_PARALLEL }, worker));
if (failed.length > 0) {
  console.error(`[typecheck] failed: ${failed.sort().join(', ')}`);
  process.exit(1);
}
