import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import './console.css';

const root = document.getElementById('root');
if (root) createRoot(root).render(createElement(App));
