import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { tsChildArgs } from '../../server/src/lib/ts-child.ts';
import type { NginxConsole } from './nginx.ts';
import { ROOT } from './paths.ts';

/** One API instance of the cluster (cluster.ts): started, and waited for until ready. */

const READY_TIMEOUT_MS = 120_000;

/** The operator console behind nginx: its origin, and each instance's console listener (app port -> port). */
export type ClusterConsole = (NginxConsole & { origin: string }) | null;

export interface Instance {
  index: number;
  port: number;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** The instance said (over IPC) that it is shutting down: a signal to the process group reached it. */
  shuttingDown: boolean;
  startedAt?: number;
}

export interface ClusterOptions {
  instances: number;
  host: string;
  port: number;
  /** Environment of the instances (the caller's; the cluster sets ports, database and chains). */
  env: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** Each instance's output lines (default: printed with its number). */
  onLine?: (index: number, line: string) => void;
  /** Start an instance that exited again (default true). */
  restart?: boolean;
}

/** Starts instance `index` (server/src/main.ts) on its loopback port. */
export function startInstance(
  index: number,
  port: number,
  databaseUrl: string,
  options: ClusterOptions,
  opsConsole: ClusterConsole,
): Instance {
  const consolePort = opsConsole?.portOf.get(port);
  const child = spawn(process.execPath, tsChildArgs(path.join(ROOT, 'server/src/main.ts'), [], options.env), {
    env: {
      ...options.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      LOCAL_CHAINS: 'false',
      TRUST_PROXY: 'true',
      // One metrics listener per instance would collide on the default port; scrape through METRICS_TOKEN.
      METRICS_PORT: 'off',
      // The dev routes' loopback listener (dev mailbox, clock) on the first instance only: one port.
      ...(index > 0 ? { DEV_PORT: 'off' } : {}),
      // The operator console's listener: a port of its own per instance, behind nginx's console server.
      ...(opsConsole && consolePort !== undefined
        ? { OPS_PORT: String(consolePort), OPS_ORIGIN: opsConsole.origin }
        : { OPS_PORT: 'off' }),
      // The database's batch budget is shared: each instance keeps its share in flight.
      API_INSTANCES: String(options.instances),
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  // An instance's own "running at" line names its loopback port, not the URL users open: the
  // launcher prints that one.
  const onLine =
    options.onLine ??
    ((i: number, line: string) => {
      if (!line.startsWith('CW Wallet is running at')) console.log(`[${i + 1}] ${line}`);
    });
  let buffer = '';
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      onLine(index, buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const instance: Instance = { index, port, child, exited, shuttingDown: false, startedAt: Date.now() };
  child.on('message', (message) => {
    if ((message as { type?: unknown } | null)?.type === 'shutting-down') instance.shuttingDown = true;
  });
  return instance;
}

export async function waitReady(instance: Instance): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let dead = false;
  void instance.exited.then(() => {
    dead = true;
  });
  while (Date.now() < deadline && !dead) {
    const res = await fetch(`http://127.0.0.1:${instance.port}/api/ready`).catch(() => undefined);
    if (res?.ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`instance ${instance.index + 1} did not become ready${dead ? ' (it exited)' : ''}`);
}
