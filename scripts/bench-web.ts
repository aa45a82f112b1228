/**
 * npm run bench:web — production build, then for the landing route /signIn:
 * initial JS bytes (gzip) and request count, the number of React copies
 * loaded (after visiting every remote too; must be 1), and a Lighthouse
 * mobile run with the Debian Chromium (BENCH_WEB_RUNS runs, default 3: the Lighthouse figures are their
 * medians). Ends with one JSON line per figure.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { ROOT } from './lib/paths.ts';

const PORT = Number(process.env.BENCH_PORT ?? 8282);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const MOBILE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const REMOTE_HUBS = ['/coinTopup', '/convert', '/rewards', '/mail', '/settings'];
const START_TIMEOUT_MS = 20 * 60_000;
/**
 * BENCH_STATIC_DIR: a deploy folder kept between runs (only what is missing is built, as npm start does),
 * e.g. to compare two host builds against the same remotes. Default: a fresh folder, removed after.
 */
const KEPT_STATIC_DIR = process.env.BENCH_STATIC_DIR ? path.resolve(process.env.BENCH_STATIC_DIR) : undefined;
/** Lighthouse runs on the landing page; each figure is their median (one run on a shared machine is noisy). */
const LIGHTHOUSE_RUNS = Math.max(1, Math.min(15, Number(process.env.BENCH_WEB_RUNS ?? 3) || 3));

function figure(name: string, value: number, unit: string) {
  console.log(JSON.stringify({ figure: name, value, unit }));
}

async function waitForHealth(timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(`${ORIGIN}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not become healthy on ${ORIGIN}`);
}

async function startServer(staticDir: string, dataDir: string, logFile: string): Promise<ChildProcess> {
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/start.ts')], {
    // The production build, served by a development server without its heavy parts: production mode
    // would (rightly) refuse to start without real keys, price feed, database and mail.
    env: {
      ...process.env,
      STATIC_DIR: staticDir,
      DATA_DIR: dataDir,
      PORT: String(PORT),
      METRICS_PORT: '0',
      DEV_PORT: '0',
      OPS_PORT: 'off',
      NODE_ENV: 'development',
      LOCAL_CHAINS: 'false',
      SIGNER_ENABLED: 'false',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', log, log],
  });
  let started = false;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', async (code) => {
      // After the start, the exit is the one asked for at the end (and the log may be gone).
      if (started) return;
      const tail = (await readFile(logFile, 'utf8')).split('\n').slice(-40).join('\n');
      reject(new Error(`build or server exited early (${code}):\n${tail}`));
    }),
  );
  // The first start builds the host and five remotes: many minutes on a shared two-core machine.
  await Promise.race([waitForHealth(START_TIMEOUT_MS), exited]);
  started = true;
  return child;
}

/** Fake React DevTools hook: every React DOM renderer that loads registers itself here. */
const COUNT_RENDERERS = `
  window.__reactRenderers = 0;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, renderers: new Map(),
    inject(renderer) { window.__reactRenderers += 1; this.renderers.set(window.__reactRenderers, renderer); return window.__reactRenderers; },
    onCommitFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}, checkDCE() {},
  };`;

async function measureLanding() {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS });
  // A zh-CN browser, as most users (and the default language, bundled): the first visit picks the
  // language from navigator.languages, and another language would add its translation chunks.
  const context = await browser.newContext({
    locale: 'zh-CN',
    userAgent: MOBILE_UA,
    viewport: { width: 390, height: 844 },
    isMobile: true,
  });
  await context.addInitScript(COUNT_RENDERERS);
  const page = await context.newPage();
  const responses: { url: string; type: string; body: Promise<Buffer> }[] = [];
  page.on('response', (response) => {
    const body = response.body();
    // A body the browser no longer has (a redirect, a document navigated away from) is never read: its
    // rejection must not end the run as an unhandled one (it did, before any figure was printed).
    body.catch(() => undefined);
    responses.push({ url: response.url(), type: response.request().resourceType(), body });
  });
  await page.goto(`${ORIGIN}/signIn`, { waitUntil: 'networkidle' });
  let jsGzipBytes = 0;
  const scripts: string[] = [];
  for (const r of responses.filter((r) => r.type === 'script')) {
    const bytes = gzipSync(await r.body, { level: 9 }).length;
    jsGzipBytes += bytes;
    scripts.push(`${r.url} ${bytes} B gzip`);
  }
  const requests = responses.length;
  // The self-hosted UI font is part of the landing cost too (woff2 is already compressed: bytes as sent).
  let fontBytes = 0;
  for (const r of responses.filter((r) => r.type === 'font')) fontBytes += (await r.body).length;
  for (const hub of REMOTE_HUBS) {
    await page.evaluate((to) => {
      history.pushState(null, '', to);
      dispatchEvent(new PopStateEvent('popstate'));
    }, hub);
    await page.waitForSelector(`[data-testid$="-hub"]`, { timeout: 15_000 });
  }
  const reactCopies = await page.evaluate(() => (window as unknown as { __reactRenderers: number }).__reactRenderers);
  await browser.close();
  return {
    jsGzipBytes,
    fontBytes,
    requests,
    reactCopies,
    scripts,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

type LighthouseFigures = { performance: number; lcpMs: number; fcpMs: number; tbtMs: number; cls: number };

/** LIGHTHOUSE_RUNS runs; every figure is the median of its runs (each run is printed too). */
async function runLighthouseMedian(): Promise<LighthouseFigures> {
  const runs: LighthouseFigures[] = [];
  for (let i = 0; i < LIGHTHOUSE_RUNS; i += 1) {
    const run = await runLighthouse();
    console.log(`[bench:web] lighthouse run ${i + 1}/${LIGHTHOUSE_RUNS}: ${JSON.stringify(run)}`);
    // A run Lighthouse could not complete (its runtimeError, printed above) is left out of the medians.
    if (Number.isFinite(run.lcpMs)) runs.push(run);
  }
  if (runs.length === 0) throw new Error('no Lighthouse run completed');
  const of = (key: keyof LighthouseFigures) => median(runs.map((r) => r[key]));
  return { performance: of('performance'), lcpMs: of('lcpMs'), fcpMs: of('fcpMs'), tbtMs: of('tbtMs'), cls: of('cls') };
}

async function runLighthouse(): Promise<LighthouseFigures> {
  // --accept-lang, not --lang (which Chromium on Linux ignores): the Accept-Language header and
  // navigator.languages say zh-CN, as in measureLanding. Before, Lighthouse measured an en-US first visit.
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: [...CHROME_FLAGS, '--lang=zh-CN', '--accept-lang=zh-CN'],
  });
  try {
    const result = await lighthouse(`${ORIGIN}/signIn`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      formFactor: 'mobile',
    });
    if (!result) throw new Error('lighthouse returned no result');
    const audits = result.lhr.audits;
    if (result.lhr.runtimeError) console.log(`[bench:web] lighthouse: ${JSON.stringify(result.lhr.runtimeError)}`);
    return {
      performance: Math.round((result.lhr.categories.performance?.score ?? 0) * 100),
      lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? Number.NaN),
      fcpMs: Math.round(audits['first-contentful-paint']?.numericValue ?? Number.NaN),
      tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? Number.NaN),
      cls: Number((audits['cumulative-layout-shift']?.numericValue ?? Number.NaN).toFixed(4)),
    };
  } finally {
    await chrome.kill();
  }
}

const workDir = await mkdtemp(path.join(os.tmpdir(), 'bench-web-'));
// The embedded PostgreSQL runs as its own user (we may be root): it must be able to enter this folder.
await chmod(workDir, 0o755);
const staticDir = KEPT_STATIC_DIR ?? path.join(workDir, 'deploy');
let server: ChildProcess | undefined;
try {
  console.log(`[bench:web] production build and server start (builds what ${staticDir} lacks)`);
  server = await startServer(staticDir, path.join(workDir, 'data'), path.join(workDir, 'server.log'));
  const landing = await measureLanding();
  console.log(`[bench:web] landing scripts:\n  ${landing.scripts.join('\n  ')}`);
  const lh = await runLighthouseMedian();
  figure('landing_js_gzip_bytes', landing.jsGzipBytes, 'bytes');
  figure('landing_font_bytes', landing.fontBytes, 'bytes');
  figure('landing_requests', landing.requests, 'requests');
  figure('react_copies', landing.reactCopies, 'copies');
  figure('lighthouse_performance', lh.performance, 'score');
  figure('lcp_ms', lh.lcpMs, 'ms');
  figure('fcp_ms', lh.fcpMs, 'ms');
  figure('tbt_ms', lh.tbtMs, 'ms');
  figure('cls', lh.cls, 'score');
} finally {
  server?.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  await rm(workDir, { recursive: true, force: true });
}
