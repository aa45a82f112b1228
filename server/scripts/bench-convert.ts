/**
 * Convert benchmark: `npm run bench:convert` (root).
 *
 * In-process: the real app (buildApp, every plugin and hook) on an embedded PostgreSQL started
 * like `src/main.ts` (BENCH_EPHEMERAL=1 for non-durable settings), prices from the sandbox feed
 * over loopback through the real adapter. 200 users (BENCH_CLIENTS) are the concurrent clients.
 *
 *   quote_p50_ms / quote_p99_ms: POST /api/convert/quotes latency (request in -> response out,
 *     measured around app.inject), with every client sending one quote per BENCH_THINK_MS
 *     (default 1000 ms, a quote screen refreshing once a second: 200 clients offer about 200 quotes/s).
 *   quote_service_p50_ms / quote_service_p99_ms: one client back to back (the server's own time per quote).
 *   quotes_per_s_saturated: the same clients in a closed loop (no think time).
 *   converts_per_s: accepted conversions per second, clients in a closed loop of quote + accept
 *     over a mix of pairs (stablecoin and priced), each accept in one DB transaction.
 *
 * Each figure is one JSON line on stdout; notes go to stderr. Ends with a reconciliation of the
 * ledger (exit 1 if it does not reconcile or any request failed unexpectedly).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { createDb } from '../src/db/create-db.ts';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import type { CoinCode } from '../src/modules/catalogue/catalogue.ts';
import { seedLiquidity } from '../src/modules/convert/liquidity.ts';
import { reconcile } from '../src/modules/ledger/reconcile.ts';
import { createLedgerService } from '../src/modules/ledger/service.ts';
import { createCoinGeckoSource } from '../src/modules/prices/coingecko-source.ts';
import { startSandboxPriceServer } from '../src/modules/prices/sandbox/sandbox-price-server.ts';
import { createPriceService } from '../src/modules/prices/service.ts';
import { headerSessionResolver, TEST_USER_HEADER } from '../src/test/app.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const clients = Number(process.env.BENCH_CLIENTS ?? 200);
const thinkMs = Number(process.env.BENCH_THINK_MS ?? 1000);
const poolSize = Number(process.env.BENCH_POOL ?? 20);
const ephemeral = process.env.BENCH_EPHEMERAL === '1';
/** BENCH_PHASES=converts runs only the conversion phase (its figure alone), e.g. under a profiler. */
const phases = new Set((process.env.BENCH_PHASES ?? 'quotes,converts').split(','));

const log = (msg: string) => process.stderr.write(`[bench:convert] ${msg}\n`);
const figure = (name: string, value: number, unit: string, note?: string) =>
  process.stdout.write(
    `${JSON.stringify({ figure: name, value: Math.round(value * 100) / 100, unit, ...(note ? { note } : {}) })}\n`,
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/** Small amounts (about 10-20 USD) over a mix of pairs, so no user or liquidity runs dry. */
const pairs: { from: CoinCode; to: CoinCode; amountMinor: string }[] = [
  { from: 'USDT', to: 'USDC', amountMinor: '10000000' },
  { from: 'USDC', to: 'TUSD', amountMinor: '10000000' },
  { from: 'USDT', to: 'BTC', amountMinor: '20000000' },
  { from: 'BTC', to: 'USDT', amountMinor: '20000' },
  { from: 'ETH', to: 'USDC', amountMinor: '5000000000000000' },
  { from: 'USDT', to: 'ETH', amountMinor: '15000000' },
];

let exitCode = 0;
const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-bench-convert-'));
const pg = await startEmbeddedPostgres({ dir, ephemeral, log });
const sandbox = await startSandboxPriceServer();
try {
  await pg.ensureDatabase('bench');
  const db = createDb(pg.url('bench'), { max: poolSize });
  await migrateToLatest(db);
  await seedLiquidity(db, new Date());
  const prices = createPriceService({
    source: createCoinGeckoSource({ baseUrl: sandbox.url, kind: 'sandbox', now: () => new Date() }),
    now: () => new Date(),
    refreshMs: 2000,
  });
  await prices.refresh();
  prices.start();
  const app = buildApp({
    db,
    prices,
    sessionResolver: headerSessionResolver,
    rateLimit: { max: 1_000_000_000, windowMs: 60_000 },
    // As the server runs: the global rate limit counts in PostgreSQL (shared by instances).
    rateLimitStore: 'database',
  });
  await app.ready();

  log(`seeding ${clients} users`);
  const ledger = createLedgerService({ db, now: () => new Date() });
  const users: string[] = [];
  for (let i = 0; i < clients; i++) {
    const { id } = await db.insertInto('users').defaultValues().returning('id').executeTakeFirstOrThrow();
    users.push(id);
    const funds: [CoinCode, bigint][] = [
      ['USDT', 10n ** 12n],
      ['USDC', 10n ** 12n],
      ['BTC', 10n ** 9n],
      ['ETH', 10n ** 20n],
    ];
    for (const [asset, amountMinor] of funds) {
      await ledger.deposit({ idempotencyKey: `bench:${id}:${asset}`, userId: id, asset, amountMinor });
    }
  }

  let unexpected = 0;
  const quote = async (user: string, n: number) => {
    const pair = pairs[n % pairs.length] ?? pairs[0];
    const res = await app.inject({
      method: 'POST',
      url: '/api/convert/quotes',
      headers: { [TEST_USER_HEADER]: user },
      payload: pair,
    });
    if (res.statusCode !== 200) {
      unexpected++;
      if (unexpected <= 5) log(`quote failed: ${res.statusCode} ${res.body}`);
      return null;
    }
    return res.json<{ quoteId: string }>().quoteId;
  };

  /** Every client loops until the deadline; returns latencies of `op` in ms. */
  async function run(
    label: string,
    pause: number,
    op: (user: string, n: number) => Promise<unknown>,
    clientsUsed: readonly string[] = users,
  ) {
    const latencies: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      clientsUsed.map(async (user, w) => {
        // Spread the clients' first requests over one think period.
        if (pause > 0) await sleep((w * pause) / clientsUsed.length);
        for (let n = w; performance.now() < deadline; n++) {
          const t0 = performance.now();
          await op(user, n);
          latencies.push(performance.now() - t0);
          if (pause > 0) await sleep(pause);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const result = {
      count: latencies.length,
      perSecond: latencies.length / elapsed,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
    log(
      `${label}: ${result.count} in ${elapsed.toFixed(1)} s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms`,
    );
    return result;
  }

  // Warm-up: JIT, plans, pool connections.
  await run('warm-up', 0, quote).catch(() => undefined);
  await sql`analyze`.execute(db);

  // One client, back to back: the server's own time per quote, without waiting behind other clients.
  if (phases.has('quotes')) {
    const single = await run('quotes, 1 client, closed loop', 0, quote, users.slice(0, 1));
    const paced = await run(`quotes, ${clients} clients, ${thinkMs} ms think time`, thinkMs, quote);
    const saturated = await run(`quotes, ${clients} clients, closed loop`, 0, quote);
    const note = `${clients} clients, one quote per ${thinkMs} ms each, in-process app`;
    figure('quote_p50_ms', paced.p50, 'ms', note);
    figure('quote_p99_ms', paced.p99, 'ms', note);
    figure('quote_service_p50_ms', single.p50, 'ms', 'one client, back to back: time per quote without queueing');
    figure('quote_service_p99_ms', single.p99, 'ms', 'one client, back to back: time per quote without queueing');
    figure('quote_rate_per_s', paced.perSecond, '1/s', 'quotes served during the latency run');
    figure('quotes_per_s_saturated', saturated.perSecond, '1/s', `${clients} clients, closed loop`);
    figure('quote_p99_ms_saturated', saturated.p99, 'ms', `${clients} clients, closed loop (queueing included)`);
  }

  let converted = 0;
  const converts = !phases.has('converts')
    ? null
    : await run(`quote + accept, ${clients} clients, closed loop`, 0, async (user, n) => {
        const quoteId = await quote(user, n);
        if (!quoteId) return;
        const res = await app.inject({
          method: 'POST',
          url: `/api/convert/quotes/${quoteId}/accept`,
          headers: { [TEST_USER_HEADER]: user },
        });
        if (res.statusCode === 200 && res.json<{ outcome: string }>().outcome === 'converted') converted++;
        else {
          unexpected++;
          if (unexpected <= 5) log(`accept failed: ${res.statusCode} ${res.body}`);
        }
      });
  if (converts) {
    const convertSeconds = converts.count / converts.perSecond;
    figure('converts_per_s', converted / convertSeconds, '1/s', `${clients} clients, closed loop quote + accept`);
  }

  prices.stop();
  await app.close();
  const report = await reconcile(db);
  log(`reconcile after the run: ${report.ok ? 'RECONCILED' : 'MISMATCH'} (${report.transfers} transfers)`);
  if (!report.ok || unexpected > 0) exitCode = 1;
  await db.destroy();
} finally {
  await sandbox.close();
  await pg.stop();
  await rm(dir, { recursive: true, force: true });
}
process.exitCode = exitCode;
