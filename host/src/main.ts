import { PRERENDERED_ATTRIBUTE } from './prerendered.ts';

/**
 * The entry is only this: the app is the `app` chunk (boot.ts, with the UI font's faces in its CSS). On a
 * pre-rendered landing page it starts after the first paint, and nothing else is fetched before that paint:
 * the form paints from the HTML and its inlined CSS alone, instead of after the app chunk, its CSS and the
 * font have arrived (under Lighthouse's mobile throttling each of those was on the path to the LCP).
 * index.html (every other page) preloads the chunk beside this file: there nothing paints before it runs.
 */
const start = () => import(/* webpackChunkName: "app" */ './boot.ts');

const prerendered = document.getElementById('root')?.hasAttribute(PRERENDERED_ATTRIBUTE) ?? false;
// A hidden page gets no animation frame (it would wait until shown): it starts at once.
if (prerendered && document.visibilityState === 'visible') {
  requestAnimationFrame(() => setTimeout(start, 0));
} else {
  void start();
}
