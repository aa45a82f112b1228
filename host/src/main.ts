import { PRERENDERED_ATTRIBUTE } from './prerendered.ts';

/**
 * The entry is only this: the app is the `app` chunk (boot.ts, with the UI font's faces in its CSS). On a
 * pre-rendered landing page it is fetched and started once the first paint is on screen, and nothing else is
 * fetched before that paint: the form paints from the HTML and its inlined CSS alone (under Lighthouse's
 * mobile throttling every request that ends before the paint counts as on its path, as the preloaded app
 * chunk and font did). index.html (every other page) preloads the chunk beside this file: there nothing
 * paints before it runs.
 */
const start = () => import(/* webpackChunkName: "app" */ './boot.ts');

/** A browser that reports no paint (nothing contentful, no paint timing) starts the app after this anyway. */
const FIRST_PAINT_WAIT_MS = 3000;

/**
 * Runs `run` once the page's first paint has been presented: a paint-timing entry is queued only then, while
 * an animation frame comes before the frame is drawn (on a busy phone the app's requests then began before
 * the form was on screen).
 */
function afterFirstPaint(run: () => void) {
  let started = false;
  let observer: PerformanceObserver | undefined;
  const once = () => {
    if (started) return;
    started = true;
    observer?.disconnect();
    run();
  };
  if (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    observer = new PerformanceObserver(() => setTimeout(once, 0));
    observer.observe({ type: 'paint', buffered: true });
    setTimeout(once, FIRST_PAINT_WAIT_MS);
  } else {
    requestAnimationFrame(() => setTimeout(once, 0));
  }
}

const prerendered = document.getElementById('root')?.hasAttribute(PRERENDERED_ATTRIBUTE) ?? false;
// A hidden page paints nothing until shown: it starts at once.
if (prerendered && document.visibilityState === 'visible') {
  afterFirstPaint(() => void start());
} else {
  void start();
}
