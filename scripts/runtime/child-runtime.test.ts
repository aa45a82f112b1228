import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { tsChildArgs } from '../../server/src/lib/ts-child.ts';

/**
 * Every process the project starts runs on the Node it pins (package.json optionalDependencies
 * node-<platform>-<arch>, linked as node_modules/.bin/node, first on npm scripts' PATH). Children are
 * started in one of three ways, each checked here by what the child itself reports:
 *  - process.execPath --import tsx <script>: the signer, keygen, the API server under npm start and the
 *    cluster, the benches' servers, the ops CLI in tests; the first three as process.execPath <script>
 *    (Node's own type stripping) where TS_CHILD_LOADER=strip, as in the test runs (server/src/lib/ts-child.ts);
 *  - npx tsx <script> (PATH): the e2e web server (playwright.config.ts) and the e2e helpers;
 *  - worker_threads: the argon2 hashing worker.
 * The scan below keeps it that way: a new child started as a bare `node` fails it.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
const pinned: string | undefined =
  pkg.optionalDependencies?.[`node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`];
const PRINT_VERSION = 'console.log(process.version)';

describe.skipIf(pinned === undefined)('children run on the pinned Node', () => {
  const want = `v${pinned}`;

  it('the test runner itself (npm test, npx vitest)', () => {
    expect(process.version).toBe(want);
  });

  it('process.execPath --import tsx (signer, keygen, API server, benches)', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '-e', PRINT_VERSION], { cwd: ROOT });
    expect(stdout.trim()).toBe(want);
  });

  it('process.execPath <file.ts> under TS_CHILD_LOADER=strip (Node type stripping: the same children in the tests)', async () => {
    const args = tsChildArgs(path.join(ROOT, 'scripts/runtime/print-version.ts'), [], { TS_CHILD_LOADER: 'strip' });
    expect(args).toEqual([path.join(ROOT, 'scripts/runtime/print-version.ts')]);
    const { stdout } = await run(process.execPath, args, { cwd: ROOT });
    expect(stdout.trim()).toBe(want);
  });

  it('npx tsx (the e2e web server and helpers), with the environment the tests have', async () => {
    const { stdout } = await run('npx', ['tsx', '-e', PRINT_VERSION], { cwd: ROOT, env: process.env });
    expect(stdout.trim()).toBe(want);
  }, 60_000);

  it('npx tsx from a shell whose PATH lacks node_modules/.bin still gets it (npx puts it first)', async () => {
    const PATH = (process.env.PATH ?? '')
      .split(path.delimiter)
      .filter((p) => !p.includes('node_modules'))
      .join(path.delimiter);
    const { stdout } = await run('npx', ['tsx', '-e', PRINT_VERSION], { cwd: ROOT, env: { ...process.env, PATH } });
    expect(stdout.trim()).toBe(want);
  }, 60_000);

  it('worker threads (argon2 hashing)', async () => {
    const worker = new Worker('require("node:worker_threads").parentPort.postMessage(process.version)', { eval: true });
    const version = await new Promise((resolve) => worker.once('message', resolve));
    await worker.terminate();
    expect(version).toBe(want);
  });
});

describe('how children are started', () => {
  it('no Node child is started as a bare `node` (it would take whatever Node is first on PATH)', async () => {
    const { stdout } = await run(
      'git',
      [
        'grep',
        '-n',
        '-E',
        `(spawn|spawnSync|execFile|execFileSync|fork)\\((['"])node\\2`,
        '--',
        '*.ts',
        '*.mts',
        '*.mjs',
      ],
      {
        cwd: ROOT,
      },
    ).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
    expect(stdout.trim().split('\n').filter(Boolean)).toEqual([]);
  });

  it('the e2e web server is started through npx (PATH with node_modules/.bin first)', async () => {
    const config = await readFile(path.join(ROOT, 'playwright.config.ts'), 'utf8');
    expect(config).toMatch(/command: 'npx tsx e2e\/support\/start-fresh\.ts'/);
    // ...which runs npm start's script in its own process (an import, not a bare node child).
    const starter = await readFile(path.join(ROOT, 'e2e/support/start-fresh.ts'), 'utf8');
    expect(starter).toMatch(/await import\('\.\.\/\.\.\/scripts\/start\.ts'\)/);
  });
});
