import { describe, expect, it } from 'vitest';
import { errorBackoff, MAX_ERROR_BACKOFF_MS, startWatchers } from './runner.ts';
import type { ChainWatcher, TickReport } from './watcher.ts';

const report = (behind: boolean): TickReport => ({
  network: 'ethereum',
  scannedTo: 1n,
  observed: 0,
  credited: 0,
  behind,
});

describe('watcher runner', () => {
  it('ticks again at once while behind, keeps going after a failed tick, and stop() waits for the loop', async () => {
    const ticks: string[] = [];
    let n = 0;
    const watcher: ChainWatcher = {
      network: 'ethereum',
      async tick() {
        n++;
        if (n === 2) {
          ticks.push('fail');
          throw new Error('rpc down');
        }
        ticks.push(n <= 4 ? 'behind' : 'idle');
        return report(n <= 4);
      },
    };
    const errors: string[] = [];
    const runner = startWatchers([watcher], {
      pollMs: 10_000,
      errorBackoffMs: 5,
      onError: (network, err) => errors.push(`${network}: ${(err as Error).message}`),
    });
    const deadline = Date.now() + 2_000;
    while (ticks.length < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const t0 = performance.now();
    await runner.stop(); // wakes the 10 s poll sleep
    expect(performance.now() - t0).toBeLessThan(1_000);
    expect(ticks).toEqual(['behind', 'fail', 'behind', 'behind', 'idle']);
    expect(errors).toEqual(['ethereum: rpc down']);
  });

  it('a new head wakes the loop at once; a head during a tick makes it tick again', async () => {
    let ticks = 0;
    let inTick: (() => void) | null = null;
    const watcher: ChainWatcher = {
      network: 'ethereum',
      async tick() {
        ticks++;
        if (ticks === 2) await new Promise<void>((r) => (inTick = r));
        return report(false);
      },
    };
    let push: () => void = () => {};
    const runner = startWatchers([watcher], {
      pollMs: 60_000,
      heads: () => ({
        subscribe: (onHead) => {
          push = onHead;
          return () => {};
        },
      }),
    });
    const wait = async (n: number) => {
      const deadline = Date.now() + 2_000;
      while (ticks < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    };
    await wait(1);
    expect(ticks).toBe(1);
    push(); // asleep for a minute: woken now
    await wait(2);
    expect(ticks).toBe(2);
    push(); // during tick 2
    (inTick as (() => void) | null)?.();
    await wait(3);
    expect(ticks).toBe(3);
    await runner.stop();
  });

  it('backs off longer after each failed tick in a row (a node answering 429 is not hammered), capped', () => {
    expect([1, 2, 3, 4].map((n) => errorBackoff(2_000, n))).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(errorBackoff(2_000, 50)).toBe(MAX_ERROR_BACKOFF_MS);
  });
});
