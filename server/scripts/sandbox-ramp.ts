/**
 * The sandbox payment provider on its own (loopback), as a separate process: `npx tsx
 * server/scripts/sandbox-ramp.ts` prints `{"url":"http://127.0.0.1:PORT"}` and serves until SIGTERM.
 * Without chains (quotes, checkout pages and look-ups only). Keys: SANDBOX_RAMP_PUBLISHABLE_KEY,
 * SANDBOX_RAMP_SECRET_KEY, SANDBOX_RAMP_WEBHOOK_KEY (defaults: the test keys). bench:ramp runs the
 * provider here, so the app under measurement does not share its event loop with its counterparty.
 */

import { startSandboxRamp } from '../src/modules/ramp/sandbox/sandbox-server.ts';
import { SANDBOX_KEYS } from '../src/modules/ramp/test-helpers.ts';

const sandbox = await startSandboxRamp({
  chains: () => ({}),
  publishableKey: process.env.SANDBOX_RAMP_PUBLISHABLE_KEY ?? SANDBOX_KEYS.publishableKey,
  secretKey: process.env.SANDBOX_RAMP_SECRET_KEY ?? SANDBOX_KEYS.secretKey,
  webhookKey: process.env.SANDBOX_RAMP_WEBHOOK_KEY ?? SANDBOX_KEYS.webhookKey,
  duplicateRate: 0,
  reorderRate: 0,
});
process.stdout.write(`${JSON.stringify({ url: sandbox.url })}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void sandbox.close().then(() => process.exit(0)));
}
