/** The app's start (main.ts loads this chunk): hydrate a pre-rendered landing page, else render afresh. */
import { currentLanguage, DEFAULT_LANGUAGE } from '@cw/shared-state/i18n';
import { createElement } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { keepMarkupValues } from './features/account/utils/markup-values.ts';
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
  // Text typed into the markup before this script ran survives the fresh render (use-form.ts takes it).
  keepMarkupValues(container);
  container.replaceChildren();
  createRoot(container).render(createElement(App));
}
