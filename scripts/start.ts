/**
 * npm start: build whatever is missing, then serve everything from one port
 * (default http://127.0.0.1:8080): host at /, remotes at /remotes/<name>/<version>/, the registry at
 * /remotes.json and the API at /api, on the embedded PostgreSQL; the operator console on its own
 * listener and origin (OPS_PORT, http://localhost:9466/ops/: server/src/http/console-surface.ts).
 * `npm start -- --instances N`: N API instances behind nginx on that port (scripts/lib/cluster.ts).
 * `npm start -- --standby`: a synchronous streaming replica of the embedded PostgreSQL beside it
 * (server/src/db/replication/embedded-standby.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, isLoopbackHost } from '../server/src/config.ts';
import { tsChildArgs, tsChildLoader } from '../server/src/lib/ts-child.ts';
import { startCluster } from './lib/cluster.ts';
import { deployHost, deployOpsConsole } from './lib/deploy-host.ts';
import { deployRemote } from './lib/deploy-remote.ts';
import { ensureNginx } from './lib/ensure-servers.ts';
import { DEPLOY_DIR, REMOTE_NAMES, ROOT } from './lib/paths.ts';
import { readRegistry } from './lib/registry.ts';
import { sealLegacyEntries } from './lib/seal-registry.ts';
import { startRemoteCdnDemo } from './lib/start-cdn-demo.ts';

// A bad TS_CHILD_LOADER is refused before the builds, not when the server is spawned after them.
try {
  tsChildLoader();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}

if (!existsSync(path.join(DEPLOY_DIR, 'host', 'index.html'))) {
  console.log('[start] building the host');
  await deployHost();
}
if (!existsSync(path.join(DEPLOY_DIR, 'ops', 'index.html'))) {
  console.log('[start] building the operator console');
  await deployOpsConsole();
}
const registry = await readRegistry();
for (const name of REMOTE_NAMES) {
  if (!registry.remotes[name]) {
    console.log(`[start] deploying remote ${name}`);
    await deployRemote(name);
  }
}
const sealed = await sealLegacyEntries();
if (sealed.length > 0) console.log(`[start] sealed with integrity: ${sealed.join(', ')}`);
// REMOTE_CDN_DEMO=1: a team's CDN on another loopback origin, pinned in REMOTE_ORIGINS for the server.
await startRemoteCdnDemo(process.env);

/**
 * The local default (development on loopback) shows mail in the dev mailbox; anything else must set
 * DEV_MAILBOX itself (the server refuses it in production and on a non-loopback HOST).
 */
function devMailboxDefault(env: NodeJS.ProcessEnv): string {
  const host = env.HOST?.trim() || '127.0.0.1';
  return env.NODE_ENV !== 'production' && isLoopbackHost(host) ? 'true' : 'false';
}

const instancesFlag = process.argv.indexOf('--instances');
if (instancesFlag >= 0) {
  // Several API instances behind nginx on the one URL (scripts/lib/cluster.ts).
  const instances = Number(process.argv[instancesFlag + 1]);
  ensureNginx();
  const cluster = await startCluster({
    instances,
    host: process.env.HOST?.trim() || '127.0.0.1',
    port: Number(process.env.PORT ?? 8080),
    env: {
      ...process.env,
      STATIC_DIR: DEPLOY_DIR,
      DEV_MAILBOX: process.env.DEV_MAILBOX || devMailboxDefault(process.env),
    },
  });
  process.stdout.write(`CW Wallet is running at ${cluster.url} (${instances} instances behind nginx)\n`);
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void cluster.stop().then(() => process.exit(0));
    });
  }
} else {
  startOne();
}

function startOne(): void {
  const server = spawn(process.execPath, tsChildArgs(path.join(ROOT, 'server/src/main.ts')), {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: {
      ...process.env,
      STATIC_DIR: DEPLOY_DIR,
      DEV_MAILBOX: process.env.DEV_MAILBOX || devMailboxDefault(process.env),
      ...(process.argv.includes('--standby') ? { EMBEDDED_STANDBY: 'true' } : {}),
    },
  });
  /**
   * A signal to the whole process group (Ctrl+C, a test runner stopping us) already reaches the server,
   * and a second one would make it exit at once instead of gracefully. So forward a signal only when the
   * server has not said (over IPC) that it is shutting down shortly after we got it.
   */
  const FORWARD_AFTER_MS = 300;
  let serverShuttingDown = false;
  server.on('message', (message) => {
    if ((message as { type?: unknown } | null)?.type === 'shutting-down') serverShuttingDown = true;
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      setTimeout(() => {
        if (!serverShuttingDown && server.exitCode === null) server.kill(signal);
      }, FORWARD_AFTER_MS).unref();
    });
  }
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
