/**
 * Ledger benchmark: `npm run bench:ledger` (root).
 *
 * On an embedded PostgreSQL started with the server's own bootstrap (startEmbeddedPostgres,
 * createDb, migrateToLatest; durable settings like `src/main.ts` unless BENCH_EPHEMERAL=1), it
 * measures for BENCH_SECONDS (default 10) per phase, with BENCH_CLIENTS (default 32) concurrent
 * clients, each on its own pool connection:
 *   - transfers_per_s_spread: postTransfer between two random accounts of 10,000, each in its own
 *     transaction (BEGIN; ledger_post; COMMIT: how every caller posts, inside its transaction)
 *   - transfers_per_s_hot:    the same from a random account into ONE hot account
 *   - transfers_per_s_{spread,hot}_autocommit: the same posting as one autocommit statement
 *     (informational: the cost of the two extra round trips of a caller's transaction)
 *   - raw_sql_tps_spread / raw_sql_tps_hot: the baseline, `UPDATE ... SET balance = balance + 1
 *     WHERE id = $1` (autocommit) on 10,000 rows / on one row, same pool, same run
 *   - transfers_per_s_{spread,hot}: batched posting (ledger/batcher.ts)
 * and the ledger/raw ratios. Raw and batched alternate in 3 rounds (see alternating()); their figures
 * are the medians of the rounds. Each figure is one JSON line on stdout; notes go to stderr.
 * Then, with this database stopped, it spawns `bench-deposit-latency.ts` (chain watcher on anvil) when
 * that script exists and forwards its figure lines (`deposit_credit_latency_ms` and its p95; its notes
 * go to stderr); when it fails it prints {"figure":"deposit_credit_latency_ms","value":null,"unit":"ms","note":...}.
 * The transfer benches end with a reconciliation of everything they posted (exit 1 if it does not
 * reconcile). The seed gives each account its own funding deposit (see seed()).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { createDb } from '../src/db/create-db.ts';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import type { Database } from '../src/db/schema.ts';
import { createLedgerBatcher } from '../src/modules/ledger/batcher.ts';
import { postTransfer } from '../src/modules/ledger/post-transfer.ts';
import { reconcile } from '../src/modules/ledger/reconcile.ts';
import { postLegs } from '../src/modules/ledger/repository.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const clients = Number(process.env.BENCH_CLIENTS ?? 32);
const ephemeral = process.env.BENCH_EPHEMERAL === '1';
/** BENCH_PHASES=raw,batched runs only the phases whose name contains one of the words (tuning runs). */
const phaseFilter = (process.env.BENCH_PHASES ?? '').split(',').filter(Boolean);
const skipped: PhaseResult = { perSecond: Number.NaN, p99Ms: Number.NaN, errors: 0 };
const ACCOUNTS = 10_000;
const ASSET = 'USDT';
/** Each account starts with 10^12 minor units (1,000,000 USDT): no transfer of 1..100 ever runs dry. */
const FUNDING_MINOR = 10n ** 12n;

const log = (msg: string) => process.stderr.write(`[bench:ledger] ${msg}\n`);
const figure = (name: string, value: number | null, unit: string, note?: string) =>
  process.stdout.write(
    `${JSON.stringify({ figure: name, value: value === null ? null : Math.round(value * 100) / 100, unit, ...(note ? { note } : {}) })}\n`,
  );
const randomIndex = (n: number) => Math.floor(Math.random() * n);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/**
 * 10,000 users, each with a USDT account funded by its own deposit transfer (not measured), as a
 * ledger that has served 10,000 users would hold. The history matters beyond realism: PostgreSQL
 * plans the foreign-key checks and the zero-sum trigger's lookup from table statistics, and
 * statistics of a near-empty journal would give sequential scans that slow down as the run grows.
 */
async function seed(db: Kysely<Database>): Promise<string[]> {
  const funding = FUNDING_MINOR.toString();
  await db.transaction().execute(async (trx) => {
    await sql`insert into users (created_at) select now() from generate_series(1, ${ACCOUNTS})`.execute(trx);
    await sql`
      insert into ledger_accounts (kind, user_id, asset, balance)
      select 'user_available', id, ${ASSET}, ${funding}::numeric from users`.execute(trx);
    const external = (FUNDING_MINOR * BigInt(-ACCOUNTS)).toString();
    await sql`insert into ledger_accounts (kind, user_id, asset, balance) values ('system_external', null, ${ASSET}, ${external}::numeric)`.execute(
      trx,
    );
    await sql`
      insert into ledger_transfers (idempotency_key, kind, created_at)
      select 'bench-funding-' || a.id, 'deposit', now() from ledger_accounts a
      where a.kind = 'user_available' order by a.id`.execute(trx);
    // Two entries per deposit; the external account's before/after chain follows the entry ids.
    await sql`
      insert into ledger_entries (transfer_id, account_id, amount, balance_before, balance_after, created_at)
      select t.id, x.account_id, x.amount, x.balance_before, x.balance_after, now()
      from (select a.id, row_number() over (order by a.id) as n from ledger_accounts a where a.kind = 'user_available') u
      join ledger_transfers t on t.idempotency_key = 'bench-funding-' || u.id
      cross join (select id from ledger_accounts where kind = 'system_external') e
      cross join lateral (values
        (1, e.id, -${funding}::numeric, -${funding}::numeric * (u.n - 1), -${funding}::numeric * u.n),
        (2, u.id, ${funding}::numeric, 0::numeric, ${funding}::numeric)
      ) x(leg, account_id, amount, balance_before, balance_after)
      order by u.n, x.leg`.execute(trx);
    await sql`create table bench_raw (id bigint primary key, balance numeric(78, 0) not null default 0)`.execute(trx);
    await sql`insert into bench_raw (id) select g from generate_series(1, ${ACCOUNTS}) g`.execute(trx);
  });
  await sql`analyze`.execute(db);
  const rows = await db
    .selectFrom('ledger_accounts')
    .select('id')
    .where('kind', '=', 'user_available')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

interface PhaseResult {
  perSecond: number;
  p99Ms: number;
  errors: number;
}

/** `clients` loops calling `once(worker, n)` until the deadline; counts completions per second. */
async function phase(
  name: string,
  once: (worker: number, n: number) => Promise<void>,
  phaseSeconds = seconds,
): Promise<PhaseResult> {
  if (phaseFilter.length > 0 && !phaseFilter.some((word) => name.includes(word))) return skipped;
  const warmUntil = Date.now() + 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, w) => {
      for (let n = 0; Date.now() < warmUntil; n += 1) await once(w, -1 - n);
    }),
  );
  const latencies: number[] = [];
  let errors = 0;
  const endAt = Date.now() + phaseSeconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, w) => {
      for (let n = 0; Date.now() < endAt; n += 1) {
        const t0 = performance.now();
        try {
          await once(w, n);
          latencies.push(performance.now() - t0);
        } catch (err) {
          errors += 1;
          if (errors <= 3) log(`${name}: ${String(err)}`);
        }
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  const result = { perSecond: latencies.length / elapsedS, p99Ms: percentile(sorted, 99), errors };
  log(
    `${name}: ${latencies.length} in ${elapsedS.toFixed(1)} s = ${result.perSecond.toFixed(0)}/s, ` +
      `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, errors ${errors}`,
  );
  return result;
}

const ROUNDS = 3;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Raw and batched phases alternately, ROUNDS times; the medians of each (p99: the median round's). */
async function alternating(
  label: string,
  raw: (worker: number, n: number) => Promise<void>,
  batched: (worker: number, n: number, round: number) => Promise<void>,
): Promise<PhaseResult & { batched: PhaseResult }> {
  const raws: PhaseResult[] = [];
  const batches: PhaseResult[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    raws.push(await phase(`raw UPDATE ${label} (round ${r + 1})`, raw, seconds / ROUNDS));
    batches.push(await phase(`batched ${label} (round ${r + 1})`, (w, n) => batched(w, n, r), seconds / ROUNDS));
  }
  const summary = (results: PhaseResult[]): PhaseResult => ({
    perSecond: median(results.map((x) => x.perSecond)),
    p99Ms: median(results.map((x) => x.p99Ms)),
    errors: results.reduce((sum, x) => sum + x.errors, 0),
  });
  return { ...summary(raws), batched: summary(batches) };
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-bench-ledger-'));
const pg = await startEmbeddedPostgres({ dir, ephemeral, log });
let exitCode = 0;
try {
  await pg.ensureDatabase('bench');
  const db = createDb(pg.url('bench'), { max: clients });
  await migrateToLatest(db);
  const accounts = await seed(db);
  const hot = accounts[0] ?? '';

  log(
    `${ACCOUNTS} funded accounts; ${clients} clients, ${seconds} s per phase, ${os.availableParallelism()} cores, ` +
      `${ephemeral ? 'ephemeral (fsync off)' : 'durable (fsync on, as the server runs)'}; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} (other processes on this machine skew the figures)`,
  );

  // Durability is part of what is measured: show the settings the figures were taken with.
  const { rows: settings } = await sql<{ name: string; setting: string }>`
    select name, setting from pg_settings
    where name in ('fsync', 'synchronous_commit', 'full_page_writes', 'wal_sync_method') order by name`.execute(db);
  log(`PostgreSQL ${settings.map((r) => `${r.name}=${r.setting}`).join(', ')}; pool of ${clients} connections`);

  const send = (key: string, from: string, to: string) => {
    const amountMinor = BigInt(1 + randomIndex(100));
    const legs = [
      { accountId: from, amountMinor: -amountMinor },
      { accountId: to, amountMinor },
    ];
    return db
      .transaction()
      .execute((trx) => postTransfer(trx, { idempotencyKey: key, kind: 'internal_send', legs }, new Date()));
  };
  const pickOther = (not: string) => {
    for (;;) {
      const id = accounts[randomIndex(accounts.length)] ?? not;
      if (id !== not) return id;
    }
  };
  // The same posting as ONE autocommit statement (its own transaction, no BEGIN/COMMIT round trips):
  // informational, to show what the two extra round trips of a caller's transaction cost.
  const sendAlone = (key: string, from: string, to: string) => {
    const amountMinor = BigInt(1 + randomIndex(100));
    return postLegs(db, {
      idempotencyKey: key,
      kind: 'internal_send',
      createdAt: new Date(),
      metadata: {},
      accountIds: [from, to],
      amountsMinor: [-amountMinor, amountMinor],
    });
  };
  const rawUpdate = (id: number) => sql`update bench_raw set balance = balance + 1 where id = ${id}`.execute(db);

  // Batched posting (modules/ledger/batcher.ts): the same transfers through the queue, one
  // ledger_post_batch statement (one round trip, one durable commit) per batch.
  const batcher = createLedgerBatcher({
    db,
    now: () => new Date(),
    ...(process.env.BENCH_IN_FLIGHT ? { inFlightMax: Number(process.env.BENCH_IN_FLIGHT) } : {}),
  });
  const sendBatched = (key: string, from: string, to: string) => {
    const amountMinor = BigInt(1 + randomIndex(100));
    return batcher.post({
      idempotencyKey: key,
      kind: 'internal_send',
      legs: [
        { accountId: from, amountMinor: -amountMinor },
        { accountId: to, amountMinor },
      ],
    });
  };

  // Raw baseline and batched posting alternate in ROUNDS rounds of BENCH_SECONDS / ROUNDS each, and each
  // figure is the median of its rounds: this machine's speed drifts within a run (the raw baseline
  // alone has measured 6,300-10,100/s), and alternating keeps both sides of a ratio under the same drift.
  const rawSpread = await alternating(
    'spread',
    async () => {
      await rawUpdate(1 + randomIndex(ACCOUNTS));
    },
    async (w, n, r) => {
      const from = pickOther('');
      await sendBatched(`batched-spread-${r}-${w}-${n}`, from, pickOther(from));
    },
  );
  const batchedSpread = rawSpread.batched;
  const spread = await phase('postTransfer spread', async (w, n) => {
    const from = pickOther('');
    await send(`spread-${w}-${n}`, from, pickOther(from));
  });
  const spreadAlone = await phase('ledger_post autocommit spread', async (w, n) => {
    const from = pickOther('');
    await sendAlone(`spread-alone-${w}-${n}`, from, pickOther(from));
  });
  const rawHot = await alternating(
    'hot',
    async () => {
      await rawUpdate(1);
    },
    async (w, n, r) => {
      await sendBatched(`batched-hot-${r}-${w}-${n}`, pickOther(hot), hot);
    },
  );
  const batchedHot = rawHot.batched;
  const hotResult = await phase('postTransfer hot', async (w, n) => {
    await send(`hot-${w}-${n}`, pickOther(hot), hot);
  });

  const hotAlone = await phase('ledger_post autocommit hot', async (w, n) => {
    await sendAlone(`hot-alone-${w}-${n}`, pickOther(hot), hot);
  });

  const batchedNote = 'batched posting: one ledger_post_batch statement and one durable commit per batch';
  figure('transfers_per_s_spread', batchedSpread.perSecond, '1/s', batchedNote);
  figure('transfers_per_s_hot', batchedHot.perSecond, '1/s', batchedNote);
  figure('raw_sql_tps_spread', rawSpread.perSecond, '1/s');
  figure('raw_sql_tps_hot', rawHot.perSecond, '1/s');
  figure('ledger_to_raw_ratio_spread', batchedSpread.perSecond / rawSpread.perSecond, 'ratio', batchedNote);
  figure('ledger_to_raw_ratio_hot', batchedHot.perSecond / rawHot.perSecond, 'ratio', batchedNote);
  figure('transfer_p99_ms_spread', batchedSpread.p99Ms, 'ms', batchedNote);
  figure('transfer_p99_ms_hot', batchedHot.p99Ms, 'ms', batchedNote);
  const unbatchedNote = 'postTransfer in its own transaction (a posting atomic with other writes)';
  figure('transfers_per_s_spread_unbatched', spread.perSecond, '1/s', unbatchedNote);
  figure('transfers_per_s_hot_unbatched', hotResult.perSecond, '1/s', unbatchedNote);
  const aloneNote = 'ledger_post as one autocommit statement, without the BEGIN/COMMIT of a caller transaction';
  figure('transfers_per_s_spread_autocommit', spreadAlone.perSecond, '1/s', aloneNote);
  figure('transfers_per_s_hot_autocommit', hotAlone.perSecond, '1/s', aloneNote);

  const report = await reconcile(db);
  log(
    `reconcile after the run: ${report.ok ? 'RECONCILED' : 'MISMATCH'} (${report.transfers} transfers, ${report.entries} entries)`,
  );
  const errors =
    spread.errors + hotResult.errors + spreadAlone.errors + hotAlone.errors + batchedSpread.errors + batchedHot.errors;
  if (!report.ok || errors > 0) exitCode = 1;
  await db.destroy();
} finally {
  await pg.stop();
  await rm(dir, { recursive: true, force: true });
}

const DEPOSIT_BENCH = path.join(import.meta.dirname, 'bench-deposit-latency.ts');
/**
 * The deposit bench mines blocks on anvil and waits for the watcher: well under a minute normally.
 * On this timeout it is sent SIGTERM, which skips its own clean-up (its PostgreSQL may be left running).
 */
const DEPOSIT_BENCH_TIMEOUT_MS = Number(process.env.BENCH_DEPOSIT_TIMEOUT_MS ?? 300_000);

/**
 * Runs the deposit-latency bench as its own process (same Node and tsx loader: process.execArgv)
 * and returns its figure lines, or a null figure with the reason.
 */
async function depositLatencyLines(): Promise<string> {
  const missing = (note: string) =>
    JSON.stringify({ figure: 'deposit_credit_latency_ms', value: null, unit: 'ms', note });
  if (!existsSync(DEPOSIT_BENCH)) return missing('server/scripts/bench-deposit-latency.ts does not exist yet');
  log('running bench-deposit-latency.ts');
  const child = spawn(process.execPath, [...process.execArgv, DEPOSIT_BENCH], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    lines.push(...parts);
  });
  const timer = setTimeout(() => child.kill('SIGTERM'), DEPOSIT_BENCH_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(null));
    child.on('close', (exitCodeOf) => resolve(exitCodeOf));
  });
  clearTimeout(timer);
  lines.push(pending);
  const figures = lines.map((l) => l.trim()).filter((l) => l.startsWith('{"figure":'));
  if (code !== 0) return missing(`bench-deposit-latency.ts exited with ${code ?? 'an error or timeout'}`);
  return figures.length > 0 ? figures.join('\n') : missing('bench-deposit-latency.ts printed no figure line');
}

if (phaseFilter.length === 0 || phaseFilter.includes('deposit'))
  process.stdout.write(`${await depositLatencyLines()}\n`);
process.exitCode = exitCode;
