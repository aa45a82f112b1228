import { type Kysely, sql } from 'kysely';

/**
 * Review 32wd L7: withdrawal_decisions is append-only through 0095's row trigger, which a TRUNCATE
 * bypasses (row triggers do not fire on it). A statement trigger now refuses TRUNCATE for every role,
 * the owner's too, as for audit_events and ledger_entries; and the app role, which only ever inserts
 * and reads decisions, loses UPDATE and DELETE so that the trigger is not its only guard.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create trigger withdrawal_decisions_no_truncate before truncate on withdrawal_decisions
    for each statement execute function withdrawal_decisions_append_only()`.execute(db);
  await sql`do $$ begin
    if exists (select 1 from pg_roles where rolname = 'cw_app_role') then
      revoke update, delete, truncate on withdrawal_decisions from cw_app_role;
    end if;
  end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger withdrawal_decisions_no_truncate on withdrawal_decisions`.execute(db);
  await sql`do $$ begin
    if exists (select 1 from pg_roles where rolname = 'cw_app_role') then
      grant update, delete on withdrawal_decisions to cw_app_role;
    end if;
  end $$`.execute(db);
}
