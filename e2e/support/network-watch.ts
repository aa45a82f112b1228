import { expect, type Page, type Request } from '@playwright/test';

/**
 * Counts a page's requests in flight (event streams aside: they stay open by design), for walks that must
 * know when a route has settled. `quiet()`: nothing in flight and nothing started or answered for `quietMs`.
 * `settled()`: quiet, and still so after the page has drawn two more frames and run its queued tasks (a lazy
 * chunk that just arrived has then rendered and its effects have started their calls). `touch()` starts the
 * quiet period now (a route change has just been asked for).
 */
export function watchNetwork(page: Page, { quietMs, pollMs }: { quietMs: number; pollMs: number }) {
  const inFlight = new Set<Request>();
  let changes = 0;
  let lastChange = Date.now();
  const changed = () => {
    changes += 1;
    lastChange = Date.now();
  };
  page.on('request', (request) => {
    if (request.resourceType() === 'eventsource') return;
    inFlight.add(request);
    changed();
  });
  const finished = (request: Request) => {
    if (inFlight.delete(request)) changed();
  };
  page.on('requestfinished', finished);
  page.on('requestfailed', finished);
  const quiet = () =>
    expect
      .poll(() => inFlight.size === 0 && Date.now() - lastChange >= quietMs, { intervals: [pollMs], timeout: 30_000 })
      .toBe(true);
  const nextFrames = () =>
    page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0)))),
    );
  return {
    touch: () => {
      lastChange = Date.now();
    },
    quiet,
    settled: async () => {
      for (let round = 0; round < 20; round += 1) {
        await quiet();
        const seen = changes;
        await nextFrames();
        if (changes === seen && inFlight.size === 0) return;
      }
      throw new Error('the page kept starting requests');
    },
  };
}

export type NetworkWatch = ReturnType<typeof watchNetwork>;
