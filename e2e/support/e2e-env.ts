import path from 'node:path';

/** Where the e2e server runs and keeps its files (fresh each `npm test`). */
export const E2E_ROOT = path.resolve(import.meta.dirname, '../..');
/** E2E_PORT: another port, so two checkouts on one machine can each run their e2e server. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);
export const E2E_STATIC_DIR = path.join(E2E_ROOT, '.e2e', 'deploy');
export const E2E_DATA_DIR = path.join(E2E_ROOT, '.e2e', 'data');
