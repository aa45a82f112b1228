// The UI's Latin text is designed for Roboto, self-hosted (latin subset ~43 kB, one variable file for every
// weight, font-display: swap; other subsets load only if their characters appear), so that every phone and
// the browser tests render the same widths. CJK text falls through to the system's CJK font.
import '@fontsource-variable/roboto/wght.css';
import { PRERENDERED_ATTRIBUTE } from './prerendered.ts';

/**
 * The entry is only this: the app is the `app` chunk, preloaded by index.html beside this file (no extra
 * round trip). On a pre-rendered landing page it starts after the first paint: the browser shows the form
 * from the HTML first, instead of compiling and running the app before it paints anything.
 */
const start = () => import(/* webpackChunkName: "app" */ './boot.ts');

const prerendered = document.getElementById('root')?.hasAttribute(PRERENDERED_ATTRIBUTE) ?? false;
// A hidden page gets no animation frame (it would wait until shown): it starts at once.
if (prerendered && document.visibilityState === 'visible') {
  requestAnimationFrame(() => setTimeout(start, 0));
} else {
  void start();
}
