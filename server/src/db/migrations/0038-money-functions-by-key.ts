import { type Kysely, sql } from 'kysely';

/**
 * The money functions read and write rows by key only: every table row they touch is found through a
 * unique index (a quote by id, a conversion by quote, an account by id or by kind/user/asset/lane, a
 * transfer by key). Their plans are generic (`plan_cache_mode = force_generic_plan`) and cached for the
 * life of a pooled connection, so a plan made while a table was still empty (a new deployment, or any
 * table before its first autoanalyze) kept sequential scans of that table for every later call: in
 * bench:convert, `convert_accept_batch` scanned every conversion twice per batch (25.7 M rows read in a
 * 10 s run) and converts_per_s stayed near 1,600 instead of 1,900+. Turning sequential scans off for
 * these functions alone makes their plans follow the keys whatever the statistics say; nothing else in
 * the database is affected.
 */
const FUNCTIONS = [
  'convert_accept_batch',
  'convert_liquidity_consolidate',
  'ledger_post',
  'ledger_post_batch',
  'ledger_post_batch_in_order',
  'ledger_account_ids',
];

const alterEach = (setting: string) => sql`
  do $$
  declare f regprocedure;
  begin
    for f in select p.oid::regprocedure from pg_proc p
             where p.pronamespace = current_schema()::regnamespace and p.proname = any(array[${sql.raw(FUNCTIONS.map((f) => `'${f}'`).join(', '))}])
    loop
      execute format('alter function %s ${sql.raw(setting)}', f);
    end loop;
  end
  $$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await alterEach('set enable_seqscan = off').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await alterEach('reset enable_seqscan').execute(db);
}
