import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { loadConfig } from '../../server/src/config.ts';
import { embeddedAppUrl } from '../../server/src/db/app-role.ts';
import { type EmbeddedPostgres, freePort, startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.ts';
import { consoleConfigFromEnv } from '../../server/src/http/console-listener.ts';
import { tsChildArgs } from '../../server/src/lib/ts-child.ts';
import { type PreparedChains, prepareChains } from '../../server/src/modules/chain/chain-module.ts';
import { type Nginx, type NginxConsole, startNginx, stopProcess } from './nginx.ts';
import { ROOT } from './paths.ts';

/**
 * `npm start -- --instances N` (issue 15): N API instances behind nginx on one URL, sharing one
 * PostgreSQL and one set of local chains. The launcher owns what the instances share (the embedded
 * PostgreSQL unless DATABASE_URL is set, the keys and the local anvil chains), so killing an instance
 * kills nothing the others need. Each instance is `server/src/main.ts` on a loopback port of its own
 * with LOCAL_CHAINS=false (it reads the chains from DATA_DIR/chains.json) and TRUST_PROXY=true (nginx
 * sets X-Forwarded-For to the client's address, replacing whatever the client sent). Background roles
 * elect a leader among them through PostgreSQL leases (modules/leases).
 *
 * The launcher supervises: every HEALTH_EVERY_MS it asks each instance's /api/ready; an instance that
 * fails twice, or exits, is marked `down` in nginx (reloaded, no connection dropped), and one that
 * exited is started again (after 1 s, doubling up to 30 s while it keeps dying), back in nginx once
 * ready. nginx itself is in scripts/lib/nginx.ts.
 */
const READY_TIMEOUT_MS = 120_000;
const HEALTH_EVERY_MS = 2_000;
const HEALTH_TIMEOUT_MS = 1_500;
const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 30_000;

/** The operator console behind nginx: its origin, and each instance's console listener (app port -> port). */
type ClusterConsole = (NginxConsole & { origin: string }) | null;

export interface Instance {
  index: number;
  port: number;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** The instance said (over IPC) that it is shutting down: a signal to the process group reached it. */
  shuttingDown: boolean;
  startedAt?: number;
}

export interface Cluster {
  url: string;
  databaseUrl: string;
  instances: Instance[];
  stop(): Promise<void>;
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

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  if (!Number.isInteger(options.instances) || options.instances < 1 || options.instances > 16) {
    throw new Error('--instances takes 1..16');
  }
  const log = options.log ?? ((line: string) => console.log(`[cluster] ${line}`));
  const config = loadConfig(options.env);
  const closers: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const close of closers.splice(0).reverse()) await close().catch((err) => log(`stop: ${String(err)}`));
  };
  try {
    const shared = await startShared(config, options.env, log);
    closers.push(shared.stop);
    // Each instance migrates as the owner and connects as the app's login (server/src/db/app-role.ts).
    const instanceOptions = shared.migrationUrl
      ? { ...options, env: { ...options.env, MIGRATION_DATABASE_URL: shared.migrationUrl } }
      : options;
    const ports = await Promise.all(Array.from({ length: options.instances }, () => freePort()));
    const opsConsole = await clusterConsole(config, options, ports);
    const instances: Instance[] = await Promise.all(
      ports.map(async (port, index) => {
        const instance = startInstance(index, port, shared.databaseUrl, instanceOptions, opsConsole);
        await waitReady(instance);
        return instance;
      }),
    );
    const nginx = await startNginx(config.dataDir, options.host, options.port, ports, opsConsole);
    closers.push(nginx.stop);
    const supervisor = supervise(instances, nginx, shared.databaseUrl, instanceOptions, log, opsConsole);
    closers.push(async () => {
      supervisor.stop();
      // An instance already shutting down (Ctrl+C reaches the whole process group) is only waited
      // for: a second signal would make it exit at once instead of gracefully.
      await Promise.all(instances.map((i) => stopProcess(i.child, i.exited, 20_000, i.shuttingDown)));
    });
    const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`;
    log(`${options.instances} instances on ports ${ports.join(', ')} behind nginx at ${url}`);
    if (opsConsole) log(`operator console: ${opsConsole.origin}/ops/ (nginx on port ${opsConsole.port})`);
    // The launcher's own checks (the kill drill) read as the owner, as before.
    return { url, databaseUrl: shared.migrationUrl ?? shared.databaseUrl, instances, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * The console (issue 38 item 5) as the launcher's OPS_PORT / OPS_ORIGIN say: nginx listens on OPS_PORT,
 * each instance's console listener on a free port of its own, all opened as OPS_ORIGIN.
 */
async function clusterConsole(
  config: ReturnType<typeof loadConfig>,
  options: ClusterOptions,
  ports: readonly number[],
): Promise<ClusterConsole> {
  const wanted = consoleConfigFromEnv(options.env, {
    nodeEnv: config.nodeEnv,
    publicOrigin: config.security.publicOrigin,
  });
  if (!wanted.listener) return null;
  const consolePorts = await Promise.all(ports.map(() => freePort()));
  const portOf = new Map(ports.map((p, i) => [p, consolePorts[i] as number]));
  return { port: wanted.listener.port, portOf, origin: wanted.origin };
}

/**
 * Active health checks and restarts. `instances[i]` is replaced when instance i is started again, so
 * callers holding the array see the live process.
 */
function supervise(
  instances: Instance[],
  nginx: Nginx,
  databaseUrl: string,
  options: ClusterOptions,
  log: (line: string) => void,
  opsConsole: ClusterConsole,
): { stop(): void } {
  let stopped = false;
  const down = new Set<number>();
  const failures = new Map<number, number>();
  const backoff = new Map<number, number>();
  const mark = async (port: number, isDown: boolean) => {
    if (down.has(port) === isDown || stopped) return;
    if (isDown) down.add(port);
    else down.delete(port);
    log(`instance on port ${port} ${isDown ? 'marked down' : 'back'} in nginx`);
    await nginx.setDown(down).catch((err) => log(`nginx reload failed: ${String(err)}`));
  };
  const watchExit = (instance: Instance) => {
    void instance.exited.then(async (code) => {
      if (stopped || instances[instance.index] !== instance) return;
      log(`instance ${instance.index + 1} exited (${code ?? instance.child.signalCode})`);
      await mark(instance.port, true);
      if (options.restart === false) return;
      const wait = Math.min(RESTART_MAX_MS, backoff.get(instance.index) ?? RESTART_MIN_MS);
      backoff.set(instance.index, wait * 2);
      await new Promise((r) => setTimeout(r, wait));
      if (stopped) return;
      const next = startInstance(instance.index, instance.port, databaseUrl, options, opsConsole);
      instances[instance.index] = next;
      watchExit(next);
      await waitReady(next).then(
        () => mark(next.port, false),
        (err) => log(String(err)),
      );
    });
  };
  for (const instance of instances) watchExit(instance);
  const timer = setInterval(() => {
    for (const instance of instances) {
      if (instance.child.exitCode !== null || instance.child.signalCode !== null) continue;
      void fetch(`http://127.0.0.1:${instance.port}/api/ready`, {
        signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
      }).then(
        async (res) => {
          if (!res.ok) throw new Error(String(res.status));
          failures.set(instance.port, 0);
          if (Date.now() - (instance.startedAt ?? 0) > 60_000) backoff.delete(instance.index);
          await mark(instance.port, false);
        },
        async () => {
          const n = (failures.get(instance.port) ?? 0) + 1;
          failures.set(instance.port, n);
          if (n >= 2) await mark(instance.port, true);
        },
      );
    }
  }, HEALTH_EVERY_MS);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/** PostgreSQL (embedded unless DATABASE_URL) and the keys + local chains, owned by the launcher. */
async function startShared(
  config: ReturnType<typeof loadConfig>,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<{ databaseUrl: string; migrationUrl: string | undefined; stop: () => Promise<void> }> {
  let pg: EmbeddedPostgres | undefined;
  let databaseUrl = config.databaseUrl;
  let migrationUrl = env.MIGRATION_DATABASE_URL;
  if (databaseUrl === undefined) {
    pg = await startEmbeddedPostgres({
      dir: config.dataDir,
      ...(config.pgPort === undefined ? {} : { port: config.pgPort }),
      log: (msg) => log(msg),
    });
    await pg.ensureDatabase('wallet');
    // The instances migrate as the superuser and run as the app's login (server/src/db/app-role.ts).
    migrationUrl = pg.url('wallet');
    databaseUrl = await embeddedAppUrl(migrationUrl, config.dataDir);
  }
  const quiet = {
    info: () => undefined,
    warn: (_d: object, msg: string) => log(msg),
    error: (_d: object, msg: string) => log(msg),
  };
  let chains: PreparedChains | undefined;
  try {
    chains = await prepareChains({ dataDir: config.dataDir, env, chains: config.chains, log: quiet });
  } catch (err) {
    await pg?.stop();
    throw err;
  }
  return {
    databaseUrl,
    migrationUrl,
    stop: async () => {
      await chains?.stopLocal();
      await pg?.stop();
    },
  };
}

function startInstance(
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

async function waitReady(instance: Instance): Promise<void> {
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
