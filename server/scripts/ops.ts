/**
 * Operator commands: `npm run ops -- <command>` (root).
 *
 *   reconcile   Verify the ledger against its journal: every account's balance equals the sum of
 *               its entries, every transfer's entries sum to zero, all entries and every asset's
 *               balances sum to zero, before/after chains are unbroken. Prints a summary.
 *               Exit 0 when reconciled, 1 on any mismatch, 2 on a usage or connection error. Then the
 *               latest proof-of-liabilities root beside the ledger, and the reserves on the local chains
 *               (hot wallet + deposit addresses) against user liabilities; `--strict-reserves` fails on a shortfall.
 *               Last the custody book (modules/custody): each local hot wallet's balance must equal its
 *               custody account (a difference fails the command); deposit addresses must hold at least theirs.
 *   withdrawals list [--state <state>]         Withdrawals waiting for review (in_review, awaiting_second_approval) or in another state.
 *   withdrawals approve <id> --operator <name> Approve (a finance operator), as in the console and by its rules
 *               (withdrawals/four-eyes.ts): with no price feed here, each approval is the first of two unless
 *               it is the second, given by another finance operator; then the signer pays it.
 *   withdrawals reject <id> --operator <name> --reason "<text>"  Reject one in review; its amount returns to the user.
 *   withdrawals second-look <id> --operator <name> --reason "<text>"  Two finance approvals needed, not by the asker.
 *   withdrawals cancel-nonce <id> --operator <name> --reason "<text>"   A transfer in progress whose nonce
 *               is dead: the signer sends a zero-value self-transfer at that nonce; the withdrawal fails
 *               (funds back) only once that is mined, or is paid if its own attempt is mined instead.
 *
 *   operators add <name> --roles <r,…> | enrol | roles | disable | list
 *                                              Operator accounts for the console at /ops (prints a one-time enrolment link).
 *   audit verify [--against <export.jsonl>] | export <file.jsonl> | export --s3
 *                                              Walks the audit hash chain (and checks an earlier export is still in it) /
 *                                              writes it out with its head (to a file, or anchored to the S3 bucket).
 *   notices publish <file.md> | list | withdraw <id>   Announcements (see modules/notices/announcement-file.ts).
 *   por publish | list                         Proof of liabilities: a Merkle-sum snapshot now; the roots kept.
 *   ramp alerts | resolve-refund <order id> --refund-tx <hash>   Sell alerts (refund_pending, terms
 *               mismatch, completed without our transfer); a refund_pending sell closed by the provider's
 *               credited on-chain refund (refunded; no posting: the deposit credited the user).
 *   reorgs list | resolve <id> --note "<text>" Reorgs deeper than the confirmation count: the open alerts
 *               (their users' withdrawals are frozen), and closing one once handled (lifts its freezes).
 *   custody refill <network> <txHash>          Coins sent to a hot wallet from outside (a refill), read from
 *               the mined transaction and booked into its custody account, once (modules/custody/refill.ts).
 *
 *   exchange    Exchange orders held for risk: `exchange list [--state <s>]`, `exchange suspend <id>`,
 *               `exchange resolve <id> --to <state>` (modules/exchange/ops.ts). Exit 0 done, 1 refused.
 *
 *   backup base [--keep N] | status          Base backup of the embedded cluster (WAL archive in DATA_DIR/backup).
 *   restore --to <time|latest> --into <dir>  Point-in-time restore into a new folder, reconciled (db/backup/).
 *   failover --standby-url <url> [--fence <old DATA_DIR>] --reason "<text>"   Promote the standby, fence the old primary.
 *
 * Database: DATABASE_URL when set; otherwise the embedded cluster in DATA_DIR (database `wallet`):
 * the running server's cluster if it is up (read-only use, no second postmaster), else started
 * for the duration of the command. Never migrates: an operator command must not change the schema.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { ConfigError, loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/create-db.ts';
import type { EmbeddedPostgres } from '../src/db/embedded-postgres.ts';
import { isAlive } from '../src/db/embedded-postgres-leftover.ts';
import type { Database } from '../src/db/schema.ts';

/*
 * Each command's module is imported when that command runs, not all of them at start: loading every
 * module of the server cost seconds of CPU per command (the e2e specs add operators with this CLI, and
 * an operator runs one command at a time).
 */
const EMBEDDED_DATABASE = 'wallet';
const commands = [
  'reconcile',
  'withdrawals',
  'operators',
  'audit',
  'notices',
  'rewards',
  'por',
  'reorgs',
  'custody',
  'ramp',
  'backup',
  'restore',
  'failover',
] as const;
const usage = `usage: npm run ops -- <${commands.join('|')}>`;
const exchangeUsage =
  '       npm run ops -- exchange list [--state <state>] | suspend <id> | resolve <id> --to <state>';

const out = (line: string) => process.stdout.write(`${line}\n`);
const fail = (line: string, code: number): never => {
  process.stderr.write(`${line}\n`);
  process.exit(code);
};

/**
 * The cluster's folder: `dataDir/pg`, or the one named in `dataDir/pg-location` when the server moved
 * it where the postgres user can reach it (a checkout under a private folder: embedded-postgres-reach.ts).
 */
function clusterDir(dataDir: string): string {
  const location = path.join(dataDir, 'pg-location');
  if (existsSync(location)) return readFileSync(location, 'utf8').trim();
  return path.join(dataDir, 'pg');
}

/** The URL of the embedded cluster in `dataDir` if a live postmaster serves it (postmaster.pid: pid, ..., port on line 4). */
async function runningClusterUrl(dataDir: string, database = EMBEDDED_DATABASE): Promise<string | undefined> {
  const pidFile = path.join(clusterDir(dataDir), 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = (await readFile(pidFile, 'utf8')).split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || !isAlive(pid)) return undefined;
  const password = (await readFile(path.join(dataDir, 'pg-password'), 'utf8')).trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

async function connect(): Promise<{ db: Kysely<Database>; embedded?: EmbeddedPostgres }> {
  const config = loadConfig();
  if (config.databaseUrl) return { db: createDb(config.databaseUrl, { max: 2 }) };
  const running = await runningClusterUrl(config.dataDir);
  if (running) return { db: createDb(running, { max: 2 }) };
  if (!existsSync(path.join(clusterDir(config.dataDir), 'PG_VERSION')))
    return fail(`no database: set DATABASE_URL or start the server once (DATA_DIR ${config.dataDir})`, 2);
  const { startEmbeddedPostgres } = await import('../src/db/embedded-postgres.ts');
  const embedded = await startEmbeddedPostgres({ dir: config.dataDir });
  return { db: createDb(embedded.url(EMBEDDED_DATABASE), { max: 2 }), embedded };
}

async function hasLedger(db: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{ found: string | null }>`select to_regclass('ledger_entries')::text as found`.execute(db);
  return rows[0]?.found != null;
}

async function main(): Promise<number> {
  const command = process.argv[2];
  if (command === 'backup' || command === 'restore' || command === 'failover') {
    const { dataDir, uploads } = loadConfig();
    const ctx = {
      dataDir,
      s3: uploads.s3,
      clusterDir: clusterDir(dataDir),
      runningUrl: (database: string) => runningClusterUrl(dataDir, database),
      out,
      err: (line: string) => process.stderr.write(`${line}\n`),
    };
    const argv = process.argv.slice(3);
    const { runBackupCommand, runFailoverCommand, runRestoreCommand } = await import(
      '../src/db/backup/ops-commands.ts'
    );
    if (command === 'failover') return runFailoverCommand(ctx, argv);
    return command === 'backup' ? runBackupCommand(ctx, argv) : runRestoreCommand(ctx, argv);
  }
  if (command !== 'exchange' && !commands.includes(command as (typeof commands)[number])) {
    return fail(`${usage}\n${exchangeUsage}`, 2);
  }
  let connection: Awaited<ReturnType<typeof connect>>;
  try {
    connection = await connect();
  } catch (err) {
    return fail(err instanceof ConfigError ? err.message : `cannot open the database: ${String(err)}`, 2);
  }
  const { db, embedded } = connection;
  try {
    if (command === 'exchange') {
      const { runExchangeOps } = await import('../src/modules/exchange/ops.ts');
      const result = await runExchangeOps(db, process.argv.slice(3), () => new Date());
      for (const line of result.lines) (result.code === 0 ? out : (l: string) => process.stderr.write(`${l}\n`))(line);
      return result.code;
    }
    if (!(await hasLedger(db))) {
      process.stderr.write('the ledger tables do not exist (start the server once to migrate)\n');
      return 2;
    }
    if (command === 'withdrawals') {
      const { runWithdrawalsCommand } = await import('../src/modules/withdrawals/ops-commands.ts');
      return await runWithdrawalsCommand(db, process.argv.slice(3), out);
    }
    if (command === 'operators') {
      const [{ consoleConfigFromEnv }, { startDevClock }, { runOperatorsCommand }] = await Promise.all([
        import('../src/http/console-listener.ts'),
        import('../src/dev/clock.ts'),
        import('../src/modules/operators/ops-commands.ts'),
      ]);
      // The console's own origin (OPS_ORIGIN, issue 38 item 5): the link is opened where the console is served.
      const config = loadConfig();
      const { origin } = consoleConfigFromEnv(process.env, {
        nodeEnv: config.nodeEnv,
        publicOrigin: config.security.publicOrigin,
      });
      const consoleUrl = process.env.OPS_CONSOLE_URL ?? `${origin}/ops/`;
      // A development server on DEV_CLOCK (moved forward by QA) checks an enrolment link's 24 h against its
      // own time: the link is dated by the same clock. Never in production (the config refuses DEV_CLOCK there).
      const devClock =
        process.env.DEV_CLOCK === 'true' && config.nodeEnv !== 'production' ? await startDevClock(db) : null;
      try {
        return await runOperatorsCommand(db, process.argv.slice(3), out, consoleUrl, devClock?.now);
      } finally {
        devClock?.stop();
      }
    }
    if (command === 'audit') {
      const [{ runAuditCommand }, { createS3Store }] = await Promise.all([
        import('../src/modules/audit/ops-commands.ts'),
        import('../src/modules/uploads/s3-store.ts'),
      ]);
      const s3 = loadConfig().uploads.s3;
      // The audit anchors go to the uploads' bucket under audit/ (modules/audit/s3-anchor.ts).
      const store = () => (s3 ? createS3Store({ ...s3, prefix: '' }) : null);
      return await runAuditCommand(db, process.argv.slice(3), out, { store });
    }
    const argv = process.argv.slice(3);
    if (command === 'notices')
      return await (await import('../src/modules/notices/ops-commands.ts')).runNoticesCommand(db, argv, out);
    if (command === 'rewards')
      return await (await import('../src/modules/rewards/ops-commands.ts')).runRewardsCommand(db, argv, out);
    if (command === 'por')
      return await (await import('../src/modules/por/ops-commands.ts')).runPorCommand(db, argv, out);
    if (command === 'reorgs')
      return await (await import('../src/modules/deposits/ops-commands.ts')).runReorgsCommand(db, argv, out);
    if (command === 'ramp')
      return await (await import('../src/modules/ramp/ops-commands.ts')).runRampCommand(db, argv, out);
    const config = loadConfig();
    if (command === 'custody') {
      const { runCustodyCommand } = await import('../src/modules/custody/refill.ts');
      return await runCustodyCommand(db, argv, out, { dataDir: config.dataDir, env: process.env });
    }
    const [
      { formatReport, reconcile },
      { porReconcileLines },
      { reserveCheck, reserveLines },
      { custodyCheck, custodyLines },
    ] = await Promise.all([
      import('../src/modules/ledger/reconcile.ts'),
      import('../src/modules/por/ops-commands.ts'),
      import('../src/modules/por/reserves.ts'),
      import('../src/modules/custody/custody-check.ts'),
    ]);
    const report = await reconcile(db);
    for (const line of formatReport(report)) out(line);
    for (const line of await porReconcileLines(db)) out(line);
    const reserves = reserveLines(await reserveCheck(db, config.dataDir, process.env));
    for (const line of reserves.lines) out(line);
    const custody = custodyLines(await custodyCheck(db, config.dataDir, process.env));
    for (const line of custody.lines) out(line);
    // Development chains start with seeded liquidity and rewards that no deposit backs: a shortfall
    // fails the command only when asked (--strict-reserves), as production runs should.
    const strict = process.argv.includes('--strict-reserves');
    return report.ok && custody.ok && !(strict && reserves.short) ? 0 : 1;
  } finally {
    await db.destroy();
    await embedded?.stop();
  }
}

process.exitCode = await main();
