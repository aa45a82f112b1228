import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CustodyNetworkReport } from '../custody/custody-check.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { LIABILITY_KINDS } from '../por/snapshot.ts';

/**
 * The dashboard's heavy figures: the ledger reconcile (`npm run ops -- reconcile`'s check), the user
 * liabilities per asset and the custody book against the local chains. They scan the whole ledger (and
 * read chains), so they run on a schedule or when finance asks, at most once a minute, never per page
 * load; the dashboard shows the newest finished check and its age.
 */
export interface MoneyCheckReport {
  reconcile: {
    ok: boolean;
    accounts: number;
    transfers: number;
    entries: number;
    balanceMismatchCount: number;
    unbalancedTransferCount: number;
    brokenChains: number;
  };
  /** user_available + user_locked + user_rewards per asset (ledger minor units, decimal strings). */
  liabilities: { asset: string; totalMinor: string }[];
  /** The custody book against the chains (chain units); empty when no local chain is compared. */
  custody: {
    network: string;
    skipped: string | null;
    hot: { asset: string; chainMinor: string; bookMinor: string }[];
    deposits: { asset: string; chainMinor: string; bookMinor: string }[];
  }[];
  durationMs: number;
}

const DEFAULT_INTERVAL_MS = 10 * 60_000;
/** A check is not started again within this long of the previous start (asking more often waits). */
export const MIN_CHECK_GAP_MS = 60_000;
/** Any number that fits a bigint advisory lock key: the claim of a check, across instances. */
const CLAIM_LOCK = 3_202_026;

/** MONEY_CHECK_INTERVAL_MS: time between scheduled checks; at least a minute, default 10 minutes. */
export function moneyCheckIntervalFromEnv(env: NodeJS.ProcessEnv): number {
  const n = Number(env.MONEY_CHECK_INTERVAL_MS ?? DEFAULT_INTERVAL_MS);
  return Number.isInteger(n) && n >= MIN_CHECK_GAP_MS ? n : DEFAULT_INTERVAL_MS;
}

/** Records a request for a check (finance's "check now"); one waits at most. */
export async function requestMoneyCheck(db: Kysely<Database>, by: string, at: Date): Promise<void> {
  await sql`insert into money_checks (requested_at, requested_by) values (${at}, ${by.slice(0, 64)})
    on conflict ((true)) where started_at is null do nothing`.execute(db);
}

/**
 * Takes the check that is due, if any: the waiting request, or a new scheduled one when the newest
 * check is older than `intervalMs`; never within MIN_CHECK_GAP_MS of the last start. Under an
 * advisory lock, so two instances cannot both start one. Returns its id.
 */
export async function claimDueCheck(db: Kysely<Database>, at: Date, intervalMs: number): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
    const last = await trx
      .selectFrom('money_checks')
      .select(['started_at'])
      .where('started_at', 'is not', null)
      .orderBy('started_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    const sinceLast = last?.started_at ? at.getTime() - last.started_at.getTime() : Number.POSITIVE_INFINITY;
    if (sinceLast < MIN_CHECK_GAP_MS) return null;
    const waiting = await trx
      .updateTable('money_checks')
      .set({ started_at: at })
      .where('started_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (waiting) return waiting.id;
    if (sinceLast < intervalMs) return null;
    const row = await trx
      .insertInto('money_checks')
      .values({ requested_at: at, requested_by: null, started_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

async function liabilities(db: Kysely<Database>) {
  const { rows } = await sql<{ asset: string; total: string }>`
    select asset, sum(balance)::text as total from ledger_accounts
    where kind in (${sql.join(LIABILITY_KINDS.map((k) => sql.lit(k)))}) group by asset order by asset`.execute(db);
  return rows.map((r) => ({ asset: r.asset, totalMinor: r.total }));
}

const custodyJson = (reports: readonly CustodyNetworkReport[]): MoneyCheckReport['custody'] =>
  reports.map((r) => ({
    network: r.network,
    skipped: r.skipped ?? (r.notRead ? `${r.notRead} deposit address(es) not read` : null),
    hot: r.hot.map((h) => ({ asset: h.asset, chainMinor: String(h.chain), bookMinor: String(h.book) })),
    deposits: r.deposits.map((d) => ({ asset: d.asset, chainMinor: String(d.chain), bookMinor: String(d.book) })),
  }));

/** Runs check `id` (claimed) and stores its report; `ok` is the reconcile's and every hot wallet's match. */
export async function runMoneyCheck(
  db: Kysely<Database>,
  id: string,
  now: () => Date,
  custody: () => Promise<CustodyNetworkReport[]>,
): Promise<MoneyCheckReport> {
  const started = now();
  const ledger = await reconcile(db);
  const report: MoneyCheckReport = {
    reconcile: {
      ok: ledger.ok,
      accounts: ledger.accounts,
      transfers: ledger.transfers,
      entries: ledger.entries,
      balanceMismatchCount: ledger.balanceMismatchCount,
      unbalancedTransferCount: ledger.unbalancedTransferCount,
      brokenChains: ledger.brokenChains,
    },
    liabilities: await liabilities(db),
    custody: custodyJson(await custody()),
    durationMs: 0,
  };
  report.durationMs = now().getTime() - started.getTime();
  const ok = ledger.ok && report.custody.every((c) => c.hot.every((h) => h.chainMinor === h.bookMinor));
  await db
    .updateTable('money_checks')
    .set({ finished_at: now(), ok, report: JSON.stringify(report) })
    .where('id', '=', id)
    .execute();
  return report;
}

/** Retention: checks older than `keepMs` go, in bounded batches (one check every 10 minutes is 1,008 a week). */
export async function purgeOldMoneyChecks(db: Kysely<Database>, at: Date, limit: number): Promise<number> {
  const before = new Date(at.getTime() - 7 * 24 * 3_600_000);
  const result = await sql`delete from money_checks where id in (
    select id from money_checks where finished_at < ${before} limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

interface Log {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

/** How often the schedule looks for a due check or a request (cheap: one indexed row). */
const TICK_MS = 15_000;

/** On the background instance (main.ts): runs due checks and requests. */
export function startMoneyCheckSchedule(
  db: Kysely<Database>,
  now: () => Date,
  options: { intervalMs: number; custody: () => Promise<CustodyNetworkReport[]> },
  log: Log,
) {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = (async () => {
      try {
        const id = await claimDueCheck(db, now(), options.intervalMs);
        if (id === null) return;
        const report = await runMoneyCheck(db, id, now, options.custody);
        log.info({ check: id, ok: report.reconcile.ok, durationMs: report.durationMs }, 'money check done');
      } catch (err) {
        log.warn({ err }, 'money check failed; the next tick tries again');
      } finally {
        running = null;
      }
    })();
  };
  tick();
  const timer = setInterval(tick, TICK_MS);
  timer.unref();
  return {
    name: 'money check',
    close: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
