import { loadConfig } from '../../server/src/config.ts';
import { freePort } from '../../server/src/db/embedded-postgres.ts';
import { consoleConfigFromEnv } from '../../server/src/http/console-listener.ts';
import {
  type ClusterConsole,
  type ClusterOptions,
  type Instance,
  startInstance,
  waitReady,
} from './cluster-instance.ts';
import { startShared } from './cluster-shared.ts';
import { supervise } from './cluster-supervisor.ts';
import { startNginx, stopProcess } from './nginx.ts';

export type { ClusterOptions, Instance };

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
 * ready. nginx itself is in scripts/lib/nginx.ts; the shared PostgreSQL and chains in cluster-shared.ts,
 * an instance in cluster-instance.ts, the supervision in cluster-supervisor.ts.
 */
export interface Cluster {
  url: string;
  databaseUrl: string;
  instances: Instance[];
  stop(): Promise<void>;
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
