import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';

/**
 * A local anvil (Foundry) chain as a child process, bound to 127.0.0.1.
 * The binary ships in the npm package `@foundry-rs/anvil-<os>-<arch>` (an optional dependency of
 * `@foundry-rs/anvil`), so nothing is downloaded at run time.
 */
export interface AnvilOptions {
  chainId: number;
  /** 0: a free port. */
  port?: number;
  /** Load the chain from this file at start and dump it there on exit (and every stateIntervalS). */
  stateFile?: string;
  stateIntervalS?: number;
  /** Seconds between blocks; unset: a block per transaction (automine). */
  blockTimeS?: number;
  log?: (line: string) => void;
}

export interface AnvilChain {
  rpcUrl: string;
  port: number;
  chainId: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

const STOP_TIMEOUT_MS = 5_000;
const READY_TIMEOUT_MS = 20_000;

export function anvilBinary(): string {
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string];
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[process.platform as string];
  if (!arch || !os) throw new Error(`anvil: no binary package for ${process.platform}/${process.arch}`);
  const require = createRequire(import.meta.url);
  const pkg = require.resolve(`@foundry-rs/anvil-${os}-${arch}/package.json`);
  return path.join(path.dirname(pkg), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function rpcReady(rpcUrl: string): Promise<boolean> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    return res.ok;
  } catch {
    return false;
  }
}

export async function startAnvil(options: AnvilOptions): Promise<AnvilChain> {
  const port = options.port || (await freePort());
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(options.chainId)];
  if (options.stateFile) {
    args.push('--state', options.stateFile, '--state-interval', String(options.stateIntervalS ?? 10));
  }
  if (options.blockTimeS !== undefined) args.push('--block-time', String(options.blockTimeS));
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let exited = false;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
    options.log?.(chunk.toString().trim());
  });
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
  });
  const rpcUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await rpcReady(rpcUrl))) {
    if (exited || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`anvil (chain ${options.chainId}) did not start on port ${port}: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    rpcUrl,
    port,
    chainId: options.chainId,
    process: child,
    async stop() {
      if (exited) return;
      // SIGTERM: anvil dumps its state (--state) and exits.
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exit;
      clearTimeout(timer);
    },
  };
}
