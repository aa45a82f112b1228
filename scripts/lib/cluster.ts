import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../../server/src/config.ts';
import { type EmbeddedPostgres, freePort, startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.ts';
import { type PreparedChains, prepareChains } from '../../server/src/modules/chain/chain-module.ts';
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
 * nginx (Debian's package): round robin with passive health checks (an instance that refuses a
 * connection or times out is skipped for FAIL_TIMEOUT_S and the request goes to the next one; a POST
 * is passed on only when it never reached the dead instance), unbuffered for server-sent events,
 * WebSocket upgrades passed through.
 */
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const FAIL_TIMEOUT_S = 3;
const READY_TIMEOUT_MS = 120_000;

export interface Instance {
  index: number;
  port: number;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** The instance said (over IPC) that it is shutting down: a signal to the process group reached it. */
  shuttingDown: boolean;
}

export interface Cluster {
  url: string;
  databaseUrl: string;
  instances: Instance[];
  /** Starts instance `index` again (after a kill), on its port; resolves when it is ready. */
  restart(index: number): Promise<Instance>;
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
    const ports = await Promise.all(Array.from({ length: options.instances }, () => freePort()));
    const instances: Instance[] = [];
    const start = async (index: number) => {
      const instance = startInstance(index, ports[index] as number, shared.databaseUrl, options);
      instances[index] = instance;
      await waitReady(instance);
      return instance;
    };
    await Promise.all(ports.map((_, i) => start(i)));
    closers.push(async () => {
      // An instance already shutting down (Ctrl+C reaches the whole process group) is only waited
      // for: a second signal would make it exit at once instead of gracefully.
      await Promise.all(instances.map((i) => stopChild(i.child, i.exited, 20_000, i.shuttingDown)));
    });
    const nginx = await startNginx(config.dataDir, options.host, options.port, ports);
    closers.push(nginx);
    const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`;
    log(`${options.instances} instances on ports ${ports.join(', ')} behind nginx at ${url}`);
    return { url, databaseUrl: shared.databaseUrl, instances, restart: start, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** PostgreSQL (embedded unless DATABASE_URL) and the keys + local chains, owned by the launcher. */
async function startShared(
  config: ReturnType<typeof loadConfig>,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<{ databaseUrl: string; stop: () => Promise<void> }> {
  let pg: EmbeddedPostgres | undefined;
  let databaseUrl = config.databaseUrl;
  if (databaseUrl === undefined) {
    pg = await startEmbeddedPostgres({
      dir: config.dataDir,
      ...(config.pgPort === undefined ? {} : { port: config.pgPort }),
      log: (msg) => log(msg),
    });
    await pg.ensureDatabase('wallet');
    databaseUrl = pg.url('wallet');
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
    stop: async () => {
      await chains?.stopLocal();
      await pg?.stop();
    },
  };
}

function startInstance(index: number, port: number, databaseUrl: string, options: ClusterOptions): Instance {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')], {
    env: {
      ...options.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      LOCAL_CHAINS: 'false',
      TRUST_PROXY: 'true',
      // One metrics listener per instance would collide on the default port; scrape through METRICS_TOKEN.
      METRICS_PORT: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const onLine = options.onLine ?? ((i: number, line: string) => console.log(`[${i + 1}] ${line}`));
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
  const instance: Instance = { index, port, child, exited, shuttingDown: false };
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

async function stopChild(
  child: ChildProcess,
  exited: Promise<number | null>,
  timeoutMs = 20_000,
  signalled = false,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  if (!signalled) child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}

/** nginx in the foreground with its own prefix under DATA_DIR/nginx; returns its stop. */
async function startNginx(dataDir: string, host: string, port: number, ports: number[]): Promise<() => Promise<void>> {
  const dir = path.join(dataDir, 'nginx');
  await mkdir(path.join(dir, 'tmp'), { recursive: true });
  // Workers may run as another user (root starts them as nobody): they write request bodies here,
  // in files of their own (0600); they need not list the folder.
  await chmod(path.join(dir, 'tmp'), 0o733);
  const file = path.join(dir, 'nginx.conf');
  await writeFile(file, nginxConf(dir, host, port, ports));
  const child = spawn(NGINX, ['-p', dir, '-c', file, '-g', 'daemon off;'], { stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${port}/api/health`).catch(
      () => undefined,
    );
    if (res?.ok) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('nginx did not start (see above)');
    await new Promise((r) => setTimeout(r, 100));
  }
  return () => stopChild(child, exited, 5_000);
}

export function nginxConf(dir: string, host: string, port: number, ports: readonly number[]): string {
  const tmp = path.join(dir, 'tmp');
  const servers = ports.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=${FAIL_TIMEOUT_S}s;`).join('\n');
  return `# Written by scripts/lib/cluster.ts at each start.
worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
events { worker_connections 2048; }
http {
  access_log off;
  client_body_temp_path ${tmp}/body;
  proxy_temp_path ${tmp}/proxy;
  fastcgi_temp_path ${tmp}/fastcgi;
  uwsgi_temp_path ${tmp}/uwsgi;
  scgi_temp_path ${tmp}/scgi;
  # The API refuses larger bodies itself (BODY_LIMIT, upload limits); this only bounds what nginx buffers.
  client_max_body_size 25m;
  server_tokens off;
  map $http_upgrade $connection_upgrade { default upgrade; '' ''; }
  upstream api {
${servers}
    keepalive 64;
  }
  server {
    listen ${host.includes(':') ? `[${host}]` : host}:${port};
    location / {
      proxy_pass http://api;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      # Replaced, not appended: the instances trust this header (TRUST_PROXY) and must not see a client's own.
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      # Server-sent events (notifications, chat) flow as they are written.
      proxy_buffering off;
      proxy_read_timeout 1h;
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries ${Math.max(2, ports.length)};
      proxy_connect_timeout 2s;
    }
  }
}
`;
}
