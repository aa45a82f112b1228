import { type Kysely, sql } from 'kysely';

/**
 * The money dashboard's scheduled check (issue 32): the ledger reconcile, the user liabilities per
 * asset and the custody book against the local chains are full scans (and chain reads), so they run on
 * a schedule (MONEY_CHECK_INTERVAL_MS) or when finance asks, at most once a minute across instances
 * (the claim is taken under an advisory lock), never per page load. The dashboard reads the newest
 * finished row. A request from the console is a row not yet started (work recorded before it is done);
 * the background instance's schedule takes it. `report` is the check's JSON (decimal strings).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table money_checks (
    id bigint generated always as identity primary key,
    requested_at timestamptz not null,
    requested_by text check (length(requested_by) <= 64),
    started_at timestamptz,
    finished_at timestamptz,
    ok boolean,
    report jsonb,
    check ((finished_at is null) = (ok is null) and (finished_at is null) = (report is null)),
    check (finished_at is null or started_at is not null)
  )`.execute(db);
  await sql`create index money_checks_requested_idx on money_checks (requested_at desc)`.execute(db);
  // At most one request waiting: asking again while one waits changes nothing.
  await sql`create unique index money_checks_one_waiting on money_checks ((true)) where started_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table money_checks`.execute(db);
}
