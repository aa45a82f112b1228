import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from './db/embedded-postgres.ts';
import { tsChildArgs } from './lib/ts-child.ts';
import { useTestDatabase } from './test/database.ts';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));

function run(env: Record<string, string>): { child: ChildProcess; output: () => string; exit: Promise<number | null> } {
  // How the test runs start the server (vitest.config.ts): its loader, and serializers built on first use.
  const { TS_CHILD_LOADER = 'tsx', SERIALIZER_MODE = 'at-start' } = process.env;
  const child = spawn(process.execPath, tsChildArgs(main), {
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      METRICS_PORT: '0',
      OPS_PORT: 'off',
      TS_CHILD_LOADER,
      SERIALIZER_MODE,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exit };
}

describe.concurrent('main', () => {
  const database = useTestDatabase();

  it('exits non-zero naming the bad variable', async () => {
    const proc = run({ PORT: 'not-a-port', TS_CHILD_LOADER: 'esbuild' });
    expect(await proc.exit).toBe(1);
    expect(proc.output()).toContain('PORT must be an integer');
    // The signer's loader is checked with the rest, before any child is spawned (review L3).
    expect(proc.output()).toContain('TS_CHILD_LOADER must be tsx or strip (got "esbuild")');
    // The child loads and links main.ts's whole module graph before the check runs: 5 s on a loaded two-core
    // machine under type stripping (13-23 s under tsx), beside the other start.
  }, 90_000);

  it('starts on DATABASE_URL, serves, and shuts down gracefully on SIGTERM', async () => {
    const port = await freePort();
    // As production starts it (npm start): tsx's loader and every serializer built at start. The other test
    // runs' servers (drills, e2e) use type stripping and serializers on first use to start faster.
    const proc = run({
      DATABASE_URL: database.url,
      PORT: String(port),
      STATIC_DIR: '/nonexistent',
      LOG_LEVEL: 'info',
      TS_CHILD_LOADER: 'tsx',
      SERIALIZER_MODE: 'at-start',
    });
    // The server starts its local chains and the signer too: on a busy machine that takes a while.
    const deadline = Date.now() + 75_000;
    let ready: Response | undefined;
    while (!ready && Date.now() < deadline) {
      ready = await fetch(`http://127.0.0.1:${port}/api/ready`).catch(() => undefined);
      if (!ready) await new Promise((r) => setTimeout(r, 100));
    }
    expect(ready?.status, proc.output()).toBe(200);
    expect(proc.output()).toContain(`Server ready at http://127.0.0.1:${port}`);
    proc.child.kill('SIGTERM');
    expect(await proc.exit).toBe(0);
    expect(proc.output()).toContain('shutting down');
  }, 120_000);
});
