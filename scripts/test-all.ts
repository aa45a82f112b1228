/**
 * npm test: the one test command (also what CI runs).
 * ensure chromium, nginx and redis → lint → typecheck → unit tests → e2e, stopping at the
 * first failure, with a timing summary at the end. The e2e stage starts from
 * an empty .e2e/ (fresh deploy folder and database): its web server empties it
 * and builds everything (e2e/support/start-fresh.ts).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');

interface Stage {
  name: string;
  run: () => Promise<number>;
}

function exec(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    // Redocly's CLI would otherwise send usage telemetry and print an upgrade notice.
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', env });
    child.on('error', (error) => {
      console.error(error);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const tsx = (script: string) => exec(path.join(BIN, 'tsx'), [script]);

const stages: Stage[] = [
  { name: 'chromium', run: () => tsx('scripts/ensure-chromium.ts') },
  { name: 'nginx, redis', run: () => tsx('scripts/ensure-servers.ts') },
  { name: 'lint: biome', run: () => exec(path.join(BIN, 'biome'), ['check', '.']) },
  {
    name: 'lint: import boundaries',
    run: () =>
      exec(path.join(BIN, 'depcruise'), [
        '--config',
        '.dependency-cruiser.cjs',
        'host',
        'remotes',
        'shared-ui',
        'shared-state',
        'server/src',
        'scripts',
      ]),
  },
  {
    // The API contract as outside tools read it: Redocly's recommended rules, warnings as errors.
    name: 'lint: OpenAPI',
    run: () => exec(path.join(BIN, 'redocly'), ['lint', 'shared-state/src/api/openapi.json', '--format=summary']),
  },
  { name: 'typecheck', run: () => tsx('scripts/typecheck.ts') },
  { name: 'unit tests', run: () => exec(path.join(BIN, 'vitest'), ['run']) },
  // Its web server empties .e2e/ first (e2e/support/start-fresh.ts), as on any e2e run.
  { name: 'e2e', run: () => exec(path.join(BIN, 'playwright'), ['test']) },
];

// `npm test -- lint unit`: only the stages whose names start so; `--keep-going`: run all, report all.
const args = process.argv.slice(2);
const keepGoing = args.includes('--keep-going');
const only = args.filter((a) => a !== '--keep-going');
const timings: { name: string; seconds: number; ok: boolean }[] = [];
let failed: string | null = null;
const started = performance.now();
for (const stage of stages) {
  if (only.length > 0 && !only.some((o) => stage.name.startsWith(o))) continue;
  console.log(`\n[test] ── ${stage.name} ──`);
  const t0 = performance.now();
  const code = await stage.run();
  const seconds = (performance.now() - t0) / 1000;
  timings.push({ name: stage.name, seconds, ok: code === 0 });
  if (code !== 0) {
    failed ??= stage.name;
    if (!keepGoing) break;
  }
}

console.log('\n[test] summary');
for (const t of timings)
  console.log(`  ${t.ok ? 'ok  ' : 'FAIL'} ${t.name.padEnd(26)} ${t.seconds.toFixed(1).padStart(7)} s`);
console.log(`  total${' '.repeat(27)}${((performance.now() - started) / 1000).toFixed(1).padStart(7)} s`);
if (failed) {
  console.error(`[test] failed at: ${failed}`);
  process.exit(1);
}
console.log(`stages: ${timings.length} passed, 0 failed`);
