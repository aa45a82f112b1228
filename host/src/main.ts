import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
// The UI's Latin text is designed for Roboto, self-hosted (latin subset ~43 kB, one variable file for every
// weight, font-display: swap; other subsets load only if their characters appear), so that every phone and
// the browser tests render the same widths. CJK text falls through to the system's CJK font.
import '@fontsource-variable/roboto/wght.css';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
createRoot(container).render(createElement(App));
