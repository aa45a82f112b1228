import type { HeadSource } from './head-subscriber.ts';
import type { ChainWatcher, TickReport } from './watcher.ts';

/**
 * Runs watchers inside the server process: each in its own loop, ticking again at once while it
 * is behind the chain tip, otherwise every `pollMs`, or as soon as its node announces a new head
 * (`heads`, a WebSocket subscription: deposits on push). A head only wakes the loop early; the tick
 * still reads the chain from the stored cursor, so a lost subscription just means polling. A failing
 * tick is logged and retried after a back-off that doubles with each failure in a row (up to
 * MAX_ERROR_BACKOFF_MS: a node answering 429 is not hammered); it never stops the loop. `stop()` waits for the ticks
 * in progress and ends the subscriptions.
 */
export interface WatcherRunnerOptions {
  pollMs: number;
  /** Pause after a first failed tick; doubles per further failure in a row, up to MAX_ERROR_BACKOFF_MS. */
  errorBackoffMs?: number;
  /** New-head notifications per network (EVM over WebSocket); none: polling only. */
  heads?: (network: string) => HeadSource | undefined;
  onTick?: (report: TickReport) => void;
  onError?: (network: string, err: unknown) => void;
}

export const MAX_ERROR_BACKOFF_MS = 60_000;

/** The pause after the `failures`-th failed tick in a row (1, 2, ...). */
export function errorBackoff(baseMs: number, failures: number): number {
  return Math.min(baseMs * 2 ** Math.min(Math.max(failures - 1, 0), 16), Math.max(MAX_ERROR_BACKOFF_MS, baseMs));
}

export interface WatcherRunner {
  stop(): Promise<void>;
}

/** A loop's pause that a new head (or stop) ends early; a head during a tick makes the next pause 0. */
function wakeableSleep() {
  let wake: (() => void) | null = null;
  let woken = false;
  return {
    sleep(ms: number) {
      if (woken) {
        woken = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
        wake = done;
      });
    },
    wake() {
      if (wake) wake();
      else woken = true;
    },
  };
}

export function startWatchers(watchers: readonly ChainWatcher[], options: WatcherRunnerOptions): WatcherRunner {
  let stopping = false;
  const pauses = watchers.map(() => wakeableSleep());
  const unsubscribes = watchers.map((w, i) => options.heads?.(w.network)?.subscribe(() => pauses[i]?.wake()));
  const loops = watchers.map(async (watcher, i) => {
    const pause = pauses[i] ?? wakeableSleep();
    let failures = 0;
    while (!stopping) {
      let delay = options.pollMs;
      try {
        const report = await watcher.tick();
        failures = 0;
        options.onTick?.(report);
        if (report.behind) delay = 0;
      } catch (err) {
        failures++;
        options.onError?.(watcher.network, err);
        delay = errorBackoff(options.errorBackoffMs ?? Math.max(options.pollMs, 2_000), failures);
      }
      if (!stopping && delay > 0) await pause.sleep(delay);
      else await new Promise((r) => setImmediate(r));
    }
  });
  return {
    async stop() {
      stopping = true;
      for (const unsubscribe of unsubscribes) unsubscribe?.();
      for (const pause of pauses) pause.wake();
      await Promise.all(loops);
    },
  };
}
