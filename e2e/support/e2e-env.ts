import path from 'node:path';

/** Where the e2e server runs and keeps its files (fresh each `npm test`). */
export const E2E_ROOT = path.resolve(import.meta.dirname, '../..');
/** E2E_PORT: another port, so two checkouts on one machine can each run their e2e server. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);
/**
 * The server's loopback-only listener for the development routes (dev mailbox, dev clock: DEV_PORT),
 * never on the app port (issue 38 item 11). E2E_PORT + 10000 unless E2E_DEV_PORT says otherwise.
 */
export const E2E_DEV_PORT = Number(process.env.E2E_DEV_PORT ?? E2E_PORT + 10_000);
/** Where specs read the dev mailbox and move the dev clock. */
export const E2E_DEV_URL = `http://127.0.0.1:${E2E_DEV_PORT}`;
/**
 * The operator console's own listener (OPS_PORT, issue 38 item 5): E2E_PORT + 20000 unless E2E_OPS_PORT
 * says otherwise. Opened as `localhost` while the app is on 127.0.0.1: another host name, so the
 * operator's cookie is never sent to the user app (cookies are per host, not per port).
 */
export const E2E_OPS_PORT = Number(process.env.E2E_OPS_PORT ?? E2E_PORT + 20_000);
/** Where specs open the console (`${E2E_OPS_URL}/ops/`) and call /api/ops. */
export const E2E_OPS_URL = `http://localhost:${E2E_OPS_PORT}`;
export const E2E_STATIC_DIR = path.join(E2E_ROOT, '.e2e', 'deploy');
export const E2E_DATA_DIR = path.join(E2E_ROOT, '.e2e', 'data');
/**
 * Brotli quality of the e2e server's precompressed files (DEPLOY_BROTLI_QUALITY, scripts/lib/compress.ts),
 * for its start and the deploy specs: quality 11 spent ~63 s of CPU on the start alone. The .br files
 * still decode to the very bytes of the build and are served the same way.
 */
export const E2E_BROTLI_QUALITY = '5';
/**
 * A phone's device pixel ratio (an iPhone's 3). The mobile project renders at 1 (playwright.config.ts); a spec
 * whose assertion depends on the pixels (a screenshot decoded as a QR code, text fitting its box with a
 * phone's glyph positioning) asks for this one with test.use({ deviceScaleFactor: PHONE_DPR }).
 */
export const PHONE_DPR = 3;
