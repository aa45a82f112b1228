import {
  type ClusterConsole,
  type ClusterOptions,
  type Instance,
  startInstance,
  waitReady,
} from './cluster-instance.ts';
import type { Nginx } from './nginx.ts';

const HEALTH_EVERY_MS = 2_000;
const HEALTH_TIMEOUT_MS = 1_500;
const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 30_000;

/**
 * Active health checks and restarts. `instances[i]` is replaced when instance i is started again, so
 * callers holding the array see the live process.
 */
export function supervise(
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
