/** The app's start (main.ts loads this chunk): hydrate a pre-rendered landing page, else render afresh. */
// The UI's Latin text is designed for Roboto, self-hosted (latin subset ~43 kB, one variable file for every
// weight, font-display: swap; other subsets load only if their characters appear), so that every phone and
// the browser tests render the same widths. CJK text falls through to the system's CJK font. Its faces are
// in the app chunk's CSS, not the entry's: a pre-rendered landing page paints before any font is asked for
// (its inlined CSS leaves the faces out, scripts/lib/prerender.ts), and the Latin glyphs swap in once the
// app has started.
import '@fontsource-variable/roboto/wght.css';
import { currentLanguage, DEFAULT_LANGUAGE } from '@cw/shared-state/i18n';
import { createElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { renderFresh } from './fresh-render.ts';
// After the screens' own CSS, as before the entry was split: its rules win a tie (underlined links in text).
import './styles.css';
import { PRERENDERED_ATTRIBUTE } from './prerendered.ts';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
// A landing page built as HTML (scripts/lib/prerender.ts) is hydrated: the form painted before this script
// ran, and React takes it over as it is. The server serves one only when it matches the app's first render
// (this path, the default language, the phone layout); should it not, the app renders afresh.
const prerendered = container.getAttribute(PRERENDERED_ATTRIBUTE);
if (prerendered === window.location.pathname && currentLanguage() === DEFAULT_LANGUAGE) {
  hydrateRoot(container, createElement(App));
} else {
  // A pre-rendered form stays typeable until the app's own fields are ready to take its place.
  renderFresh(container, createElement(App));
}
