import type { ChainWatcher, TickReport } from './watcher.ts';

/**
 * Runs watchers inside the server process: each in its own loop, ticking again at once while it
 * is behind the chain tip, otherwise every `pollMs`. A failing tick is logged and retried after
 * a back-off; it never stops the loop. `stop()` waits for the ticks in progress.
 */
export interface WatcherRunnerOptions {
  pollMs: number;
  errorBackoffMs?: number;
  onTick?: (report: TickReport) => void;
  onError?: (network: string, err: unknown) => void;
}

export interface WatcherRunner {
  stop(): Promise<void>;
}

export function startWatchers(watchers: readonly ChainWatcher[], options: WatcherRunnerOptions): WatcherRunner {
  let stopping = false;
  const wakers = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakers.add(wake);
    });
  const loops = watchers.map(async (watcher) => {
    while (!stopping) {
      let delay = options.pollMs;
      try {
        const report = await watcher.tick();
        options.onTick?.(report);
        if (report.behind) delay = 0;
      } catch (err) {
        options.onError?.(watcher.network, err);
        delay = options.errorBackoffMs ?? Math.max(options.pollMs, 2_000);
      }
      if (!stopping && delay > 0) await sleep(delay);
      else await new Promise((r) => setImmediate(r));
    }
  });
  return {
    async stop() {
      stopping = true;
      for (const wake of [...wakers]) wake();
      await Promise.all(loops);
    },
  };
}
