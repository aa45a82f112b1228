/**
 * Buy/sell benchmark: `npm run bench:ramp` (root).
 *
 * The real app (buildApp, in this process) on an embedded PostgreSQL; the sandbox provider in its
 * own process on loopback (server/scripts/sandbox-ramp.ts), reached through the real MoonPay adapter.
 *
 *   ramp_quote_p50_ms / ramp_quote_p99_ms: POST /api/ramp/quotes latency with BENCH_CLIENTS (200)
 *     users each asking one quote per BENCH_THINK_MS (1000 ms, a quote screen refreshing), each quote
 *     a provider call over loopback plus its row.
 *   webhooks_per_s: signed webhook deliveries handled per second by POST /api/ramp/webhooks/moonpay
 *     with BENCH_WEBHOOK_CONCURRENCY (32) in flight: BENCH_ORDERS (2000) buy orders, each getting
 *     waitingPayment, pending and completed, every event delivered twice, all shuffled (so late
 *     events arrive after later ones). Signature check + one transaction each.
 *   webhook_duplicate_effects: events that changed an order more than once, or orders not ending
 *     completed with exactly the expected timeline (must be 0).
 *
 * Each figure is one JSON line on stdout; notes go to stderr.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { createDb } from '../src/db/create-db.ts';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createMoonPayClient } from '../src/modules/ramp/moonpay/client.ts';
import { createUserIn, SANDBOX_KEYS, signedWebhook } from '../src/modules/ramp/test-helpers.ts';
import { headerSessionResolver, TEST_USER_HEADER } from '../src/test/app.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const clients = Number(process.env.BENCH_CLIENTS ?? 200);
const thinkMs = Number(process.env.BENCH_THINK_MS ?? 1000);
const orders = Number(process.env.BENCH_ORDERS ?? 2000);
const concurrency = Number(process.env.BENCH_WEBHOOK_CONCURRENCY ?? 32);
const ephemeral = process.env.BENCH_EPHEMERAL === '1';
const XPUB =
  'xpub6BosfCnifzxcFwrSzQiqu2DBVTshkCXacvNsWGYJVVhhawA7d4R5WSWGFNbi8Aw6ZRc1brxMyWMzG3DSSSSoekkudhUd9yLb6qx39T9nMdj';

const log = (msg: string) => process.stderr.write(`[bench:ramp] ${msg}\n`);
const figure = (name: string, value: number, unit: string, note?: string) =>
  process.stdout.write(
    `${JSON.stringify({ figure: name, value: Math.round(value * 100) / 100, unit, ...(note ? { note } : {}) })}\n`,
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;

let exitCode = 0;
const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-bench-ramp-'));
const pg = await startEmbeddedPostgres({ dir, ephemeral, log });
// The provider in its own process (a third party is not in our event loop), over loopback.
const provider = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'sandbox-ramp.ts')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [line] = (await once(provider.stdout, 'data')) as [Buffer];
const { url: sandboxUrl } = JSON.parse(line.toString()) as { url: string };
const client = createMoonPayClient({
  apiUrl: sandboxUrl,
  buyWidgetUrl: `${sandboxUrl}/buy`,
  sellWidgetUrl: `${sandboxUrl}/sell`,
  ...SANDBOX_KEYS,
  kind: 'sandbox',
});
try {
  await pg.ensureDatabase('bench');
  const db = createDb(pg.url('bench'), { max: 20 });
  await migrateToLatest(db);
  const app = buildApp({
    db,
    sessionResolver: headerSessionResolver,
    rateLimit: { max: 1_000_000_000, windowMs: 60_000 },
    deposits: { xpubs: { ethereum: XPUB } },
    ramp: { provider: () => client, networks: () => new Set(['ethereum'] as const) },
  });
  await app.ready();
  log(`seeding ${clients} Brazilian users`);
  const users: string[] = [];
  for (let i = 0; i < clients; i++) users.push(await createUserIn(db, 'BR'));

  // ---- quotes ----
  let failed = 0;
  const quote = async (user: string, n: number) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/ramp/quotes',
      headers: { [TEST_USER_HEADER]: user },
      payload: {
        side: 'buy',
        coin: 'USDT',
        network: 'ethereum',
        amountMinor: String(20_000 + (n % 50) * 1_000),
        method: 'credit_debit_card',
      },
    });
    if (res.statusCode !== 200 && ++failed <= 5) log(`quote failed: ${res.statusCode} ${res.body}`);
  };
  async function paced(label: string, pause: number, who: readonly string[]) {
    const latencies: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      who.map(async (user, w) => {
        if (pause > 0) await sleep((w * pause) / who.length);
        for (let n = w; performance.now() < deadline; n++) {
          const t0 = performance.now();
          await quote(user, n);
          latencies.push(performance.now() - t0);
          if (pause > 0) await sleep(pause);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    log(
      `${label}: ${latencies.length} quotes, p50 ${percentile(latencies, 50).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms`,
    );
    return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), count: latencies.length };
  }
  await paced('warm-up', 0, users.slice(0, 20));
  const single = await paced('1 client, back to back', 0, users.slice(0, 1));
  const q = await paced(`${clients} clients, one quote per ${thinkMs} ms each`, thinkMs, users);

  // ---- webhooks ----
  log(`placing ${orders} buy orders`);
  const at = new Date();
  const ids: string[] = [];
  for (let i = 0; i < orders; i++) {
    const user = users[i % users.length] as string;
    const quoteRow = await db
      .insertInto('ramp_quotes')
      .values({
        user_id: user,
        side: 'buy',
        coin: 'USDT',
        network: 'ethereum',
        fiat: 'BRL',
        payment_method: 'credit_debit_card',
        fiat_amount_minor: '20000',
        crypto_amount_minor: '3500000',
        fee_fiat_minor: '967',
        network_fee_minor: '0',
        created_at: at,
        expires_at: new Date(at.getTime() + 30_000),
        used_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = randomUUID();
    await db
      .insertInto('ramp_orders')
      .values({
        id,
        user_id: user,
        side: 'buy',
        idempotency_key: id,
        quote_id: quoteRow.id,
        coin: 'USDT',
        network: 'ethereum',
        fiat: 'BRL',
        payment_method: 'credit_debit_card',
        fiat_amount_minor: '20000',
        crypto_amount_minor: '3500000',
        fee_fiat_minor: '967',
        network_fee_minor: '0',
        wallet_address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
        checkout_expires_at: new Date(at.getTime() + 3_600_000),
        created_at: at,
        updated_at: at,
      })
      .execute();
    ids.push(id);
  }
  await sql`analyze`.execute(db);
  const hash = `0x${'cd'.repeat(32)}`;
  const deliveries = ids.flatMap((id) =>
    (['waitingPayment', 'pending', 'completed'] as const).flatMap((status, k) => {
      const w = signedWebhook('transaction_updated', {
        id: `mp-${id}`,
        status,
        externalTransactionId: id,
        updatedAt: `2030-01-01T00:00:0${k}Z`,
        ...(status === 'completed' ? { cryptoTransactionId: hash } : {}),
      });
      return [w, w];
    }),
  );
  // Deterministic shuffle (Fisher-Yates with a small LCG): late and repeated events mixed in.
  let seed = 20261126;
  for (let i = deliveries.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [deliveries[i], deliveries[j]] = [
      deliveries[j] as (typeof deliveries)[number],
      deliveries[i] as (typeof deliveries)[number],
    ];
  }
  const outcomes = new Map<string, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < deliveries.length) {
        const d = deliveries[next++] as (typeof deliveries)[number];
        const res = await app.inject({
          method: 'POST',
          url: '/api/ramp/webhooks/moonpay',
          headers: { 'content-type': 'application/json', 'moonpay-signature-v2': d.header },
          payload: d.body,
        });
        const outcome = res.statusCode === 200 ? res.json<{ outcome: string }>().outcome : `http_${res.statusCode}`;
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
    }),
  );
  const webhookSeconds = (performance.now() - started) / 1000;
  log(
    `webhooks: ${deliveries.length} in ${webhookSeconds.toFixed(2)} s: ${JSON.stringify(Object.fromEntries(outcomes))}`,
  );

  const states = await db
    .selectFrom('ramp_orders')
    .select(['state'])
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .groupBy('state')
    .execute();
  const completedEvents = await db
    .selectFrom('ramp_order_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('to_state', '=', 'completed')
    .executeTakeFirstOrThrow();
  const completedOrders = Number(states.find((s) => s.state === 'completed')?.n ?? 0);
  const duplicateEffects =
    Math.abs(Number(completedEvents.n) - orders) +
    (orders - completedOrders) +
    (outcomes.get('duplicate') === orders * 3 ? 0 : 1);
  log(`orders by state: ${JSON.stringify(states)}`);

  figure(
    'ramp_quote_p50_ms',
    q.p50,
    'ms',
    `${clients} clients, one quote per ${thinkMs} ms each; provider call over loopback + row`,
  );
  figure(
    'ramp_quote_p99_ms',
    q.p99,
    'ms',
    `${clients} clients, one quote per ${thinkMs} ms each; provider call over loopback + row`,
  );
  figure('ramp_quote_service_p50_ms', single.p50, 'ms', 'one client, back to back: time per quote without queueing');
  figure(
    'webhooks_per_s',
    deliveries.length / webhookSeconds,
    '1/s',
    `${orders} orders x 3 events x 2 deliveries, shuffled, ${concurrency} in flight`,
  );
  figure(
    'webhook_duplicate_effects',
    duplicateEffects,
    'count',
    'must be 0: one effect per event, every order completed once',
  );
  if (duplicateEffects !== 0 || failed > 0 || [...outcomes.keys()].some((k) => k.startsWith('http_'))) exitCode = 1;
  await app.close();
  await db.destroy();
} finally {
  provider.kill('SIGTERM');
  await pg.stop();
  await rm(dir, { recursive: true, force: true });
}
process.exitCode = exitCode;
