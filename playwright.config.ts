import { defineConfig } from '@playwright/test';
import {
  E2E_BROTLI_QUALITY,
  E2E_DATA_DIR,
  E2E_DEV_PORT,
  E2E_OPS_PORT,
  E2E_OPS_URL,
  E2E_PORT,
  E2E_ROOT,
  E2E_STATIC_DIR,
} from './e2e/support/e2e-env.ts';

/**
 * Platform end-to-end suite (npm run test:e2e; part of npm test).
 * The server is started fresh on port 8181 with its own deploy folder and
 * database under .e2e/, emptied first on every run (e2e/support/start-fresh.ts).
 * The main suite runs on the "mobile" project; tests tagged @desktop run
 * only on the "desktop" project (the desktop frame). Specs that switch a remote for every visitor run after
 * the main run, where nothing else loads that remote: deploy-rollback and remote-canary (the mail remote) one
 * after the other in "deploy"; remote-cdn (the wallet, with one byte changed for a while) in "clock", one at a
 * time with the clock specs, which load the wallet. "clock" and "deploy" run side by side, one worker each: no
 * clock spec loads the mail remote, no deploy spec loads the wallet or signs anyone in. In the main
 * run remote-cdn's broken wallet failed another spec's wallet screen. No spec builds a remote: they deploy
 * copies of the server's builds (e2e/support/remote-copies.ts).
 */
const DEPLOY_SPEC = /(deploy-rollback|remote-canary)\.spec\.ts$/;
/** Specs that move the server's clock (DEV_CLOCK) a day forward: every other session would expire, so they run alone. */
const CLOCK_SPEC = /\.clock\.spec\.ts$/;
/** Deploys a broken wallet for every visitor for a while: alone, in the clock project's single worker. */
const WALLET_SWITCH_SPEC = /remote-cdn\.spec\.ts$/;

const CI = Boolean(process.env.CI);

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const MOBILE = {
  browserName: 'chromium' as const,
  userAgent: IPHONE_UA,
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
};

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 2,
  retries: CI ? 1 : 0,
  forbidOnly: CI,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    headless: true,
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    locale: 'zh-CN',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
  },
  projects: [
    {
      name: 'mobile',
      grepInvert: /@desktop/,
      testIgnore: [DEPLOY_SPEC, CLOCK_SPEC, WALLET_SWITCH_SPEC],
      use: {
        browserName: 'chromium',
        userAgent: IPHONE_UA,
        viewport: { width: 390, height: 844 },
        // Still 390x844 CSS px; DPR 1 because Chromium rasterises in software here and DPR 3 is 9x the pixels:
        // the same signed-in walk cost 13.6 s of Chromium CPU at DPR 1 against 17.3 s at DPR 3 (3 runs each,
        // alternated). Specs whose assertion depends on the pixels (a screenshot decoded as a QR code, text
        // fitting its box as on a phone) say test.use({ deviceScaleFactor: PHONE_DPR }).
        deviceScaleFactor: 1,
        isMobile: true,
        hasTouch: true,
      },
    },
    {
      name: 'desktop',
      grep: /@desktop/,
      testIgnore: [DEPLOY_SPEC, CLOCK_SPEC, WALLET_SWITCH_SPEC],
      use: {
        browserName: 'chromium',
        userAgent: DESKTOP_UA,
        viewport: { width: 1280, height: 800 },
        isMobile: false,
        hasTouch: false,
      },
    },
    {
      name: 'clock',
      testMatch: [CLOCK_SPEC, WALLET_SWITCH_SPEC],
      dependencies: ['mobile', 'desktop'],
      // One at a time: each moves the one server clock a day forward, which ends the other spec's sessions.
      workers: 1,
      use: MOBILE,
    },
    {
      name: 'deploy',
      testMatch: DEPLOY_SPEC,
      // After the main run, one at a time (both switch the mail remote), beside "clock" on the second worker
      // (it idled through the clock specs before: ~87 s of deploy specs on a loaded machine). Nothing here
      // reads the development clock: visitors are anonymous (no session to expire), the canary watch counts
      // reports in buckets of PostgreSQL's now() since the canary's startedAt, both real time; its lease too.
      // The registry's lock file orders remote-cdn's wallet deploys with these mail ones.
      dependencies: ['mobile', 'desktop'],
      workers: 1,
      use: {
        browserName: 'chromium',
        userAgent: IPHONE_UA,
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      },
    },
  ],
  webServer: {
    // From an empty .e2e/ every time (builds and database): e2e/support/start-fresh.ts.
    command: 'npx tsx e2e/support/start-fresh.ts',
    cwd: E2E_ROOT,
    url: `http://127.0.0.1:${E2E_PORT}/api/health`,
    // Every run builds the host, the console and five remotes first (~20 s of an idle two-core machine,
    // minutes when it is shared); a bound that only stops a hung start.
    timeout: 600_000,
    reuseExistingServer: false,
    // Stop the server the way an operator would, so it stops its embedded PostgreSQL and anvil chains
    // (both run detached) instead of leaving them behind after the run.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      STATIC_DIR: E2E_STATIC_DIR,
      // Brotli 5 instead of 11 for the .br siblings of the builds (scripts/lib/compress.ts): same bytes once
      // decoded, served the same way; 11 cost ~63 s of CPU before the first test.
      DEPLOY_BROTLI_QUALITY: E2E_BROTLI_QUALITY,
      DATA_DIR: E2E_DATA_DIR,
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      // The dev mailbox and dev clock listen here (127.0.0.1 only), not on PORT.
      DEV_PORT: String(E2E_DEV_PORT),
      // The operator console and /api/ops: their own listener, opened as localhost (the app is 127.0.0.1).
      OPS_PORT: String(E2E_OPS_PORT),
      OPS_ORIGIN: E2E_OPS_URL,
      // Every visit to the login screen asks for passkey sign-in options (autofill), all from 127.0.0.1.
      WEBAUTHN_OPTIONS_PER_IP_MINUTE: '100000',
      // Passkey specs send refused answers on purpose, all from 127.0.0.1 too.
      WEBAUTHN_ANSWERS_PER_IP_MINUTE: '100000',
      // Metrics on a free loopback port: other servers (a developer's, a unit test's) may hold 9464.
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      // The API and signer children load with Node's own type stripping and build each response serializer on
      // its route's first answer, as in the unit runs (vitest.config.ts). Production keeps tsx and builds every
      // serializer at start; serializers.test.ts builds every one, so a broken schema still fails npm test.
      TS_CHILD_LOADER: 'strip',
      SERIALIZER_MODE: 'on-first-use',
      // Every spec sends its e-mail codes from 127.0.0.1; the production default (10 an hour per IP) would trip.
      CODE_IP_HOURLY_LIMIT: '1000',
      // Every spec's page loads (static files and API calls) come from 127.0.0.1 too: two workers going
      // through every route (a11y, placeholders) pass the production 1000 a minute.
      RATE_LIMIT_MAX: '20000',
      // A 40-second fixed-rate window (production: 20 minutes) so the expiry spec can watch one run out. The
      // exchange screen asks for a new rate 30 s before a window ends (exchange-queries.ts), so an order placed
      // from the form has 30 s or more left for its deposit, as with the 1-minute window before: the paid-order
      // specs mine theirs within seconds. The expiry spec waited 60 s for it.
      EXCHANGE_FIXED_WINDOW_MS: '40000',
      // The exchange engine looks at its orders every second (production: 3 s); a paid order takes ~4 looks.
      EXCHANGE_ENGINE_INTERVAL_MS: '1000',
      // The ramp sweep runs every second (production: 5 s): a sell the sandbox provider completes before our
      // transfer's receipt waits in processing for the sweep (completeSettledSells). Its other steps act on
      // stored deadlines and states (expiries, broken transfers, alerts), so sooner changes no outcome.
      RAMP_SWEEP_INTERVAL_MS: '1000',
      // The local chains mine a block a second: a withdrawal settles on its first block, as before issue 37
      // (production waits for the catalogue's confirmations; bsc's 64 would hold a spec for a minute).
      SIGNER_SETTLE_CONFIRMATIONS: '1',
      // The rewards specs move the clock a day forward (claims after 24 hours, a lottery seed revealed).
      DEV_CLOCK: 'true',
      // A team's CDN on another loopback origin (127.0.0.2, the app's port): issue 35's cross-origin remote.
      REMOTE_CDN_DEMO: '1',
    },
  },
});
