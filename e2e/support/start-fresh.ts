/**
 * The e2e web server (playwright.config.ts): every run starts from an empty .e2e/ (fresh builds of the
 * host and remotes, a fresh database), then runs `npm start`'s script. A run of one spec in a working
 * copy used to reuse the last run's builds, so it tested yesterday's code; npm test already emptied it.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { E2E_ROOT } from './e2e-env.ts';

await rm(path.join(E2E_ROOT, '.e2e'), { recursive: true, force: true });
await import('../../scripts/start.ts');
