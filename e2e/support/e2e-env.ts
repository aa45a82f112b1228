import path from 'node:path';

/** Where the e2e server runs and keeps its files (fresh each `npm test`). */
export const E2E_ROOT = path.resolve(import.meta.dirname, '../..');
export const E2E_PORT = 8181;
export const E2E_STATIC_DIR = path.join(E2E_ROOT, '.e2e', 'deploy');
export const E2E_DATA_DIR = path.join(E2E_ROOT, '.e2e', 'data');
