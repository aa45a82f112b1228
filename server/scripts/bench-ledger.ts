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
 *
 * The steps: bench-ledger-seed.ts (the accounts), bench-ledger-phases.ts (settings, phases, output),
 * bench-ledger-transfers.ts (the workloads and their figures), bench-ledger-deposit.ts (the deposit bench).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createDb } from '../src/db/create-db.ts';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { reconcile } from '../src/modules/ledger/reconcile.ts';
import { depositLatencyLines } from './bench-ledger-deposit.ts';
import { clients, ephemeral, log, phaseFilter, seconds } from './bench-ledger-phases.ts';
import { ACCOUNTS, seed } from './bench-ledger-seed.ts';
import { measureTransfers, reportFigures } from './bench-ledger-transfers.ts';

const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-bench-ledger-'));
const pg = await startEmbeddedPostgres({ dir, ephemeral, log });
let exitCode = 0;
try {
  await pg.ensureDatabase('bench');
  const db = createDb(pg.url('bench'), { max: clients });
  await migrateToLatest(db);
  const accounts = await seed(db);

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

  const errors = reportFigures(await measureTransfers(db, accounts));

  const report = await reconcile(db);
  log(
    `reconcile after the run: ${report.ok ? 'RECONCILED' : 'MISMATCH'} (${report.transfers} transfers, ${report.entries} entries)`,
  );
  if (!report.ok || errors > 0) exitCode = 1;
  await db.destroy();
} finally {
  await pg.stop();
  await rm(dir, { recursive: true, force: true });
}

if (phaseFilter.length === 0 || phaseFilter.includes('deposit'))
  process.stdout.write(`${await depositLatencyLines()}\n`);
process.exitCode = exitCode;
