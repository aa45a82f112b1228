import { type Kysely, sql } from 'kysely';

/**
 * The API process no longer owns the database (review 32a, findings 1 and 2). Migrations run as the
 * owner (MIGRATION_DATABASE_URL; in the embedded default the cluster's superuser) and the API, the
 * signer and the workers connect as a login that is a member of the NOLOGIN group `cw_app_role`
 * (db/app-role.ts creates the embedded `cw_app` login). The group gets what the app needs on every
 * table, now and (default privileges) on tables later migrations create, but on the audit log only:
 *
 *   audit_events      INSERT, SELECT   (no UPDATE, DELETE, TRUNCATE, TRIGGER: and, not owning it,
 *                                       no ALTER TABLE … DISABLE TRIGGER either)
 *   audit_chain_head  SELECT
 *
 * Rows are linked at commit by audit_events_chain(), now SECURITY DEFINER (it runs as the owner, with
 * a pinned search_path so a caller cannot put its own `audit_chain_head` or `sha256` ahead of ours).
 * The head row also refuses, even from the owner unless it disables the trigger, any change that is
 * not the chain trigger's own +1 step (finding 2: a rewound or deleted head stops every audited action).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A migrator without CREATEROLE (one role for everything, as before) cannot make the group: then
  // there is nothing to grant to, and the head's guard and the definer trigger below still apply.
  await sql`do $$ begin
    if not exists (select 1 from pg_roles where rolname = 'cw_app_role') then
      create role cw_app_role nologin;
    end if;
  exception
    when duplicate_object or unique_violation then null; -- created by a concurrent migration
    when insufficient_privilege then raise notice 'cw_app_role not created (no CREATEROLE): grants skipped';
  end $$`.execute(db);
  // PostgreSQL 15+ already refuses CREATE on public to PUBLIC; a cluster initialised earlier did not.
  await sql`do $$ begin
    revoke create on schema public from public;
  exception when insufficient_privilege then raise notice 'schema public not ours: CREATE left as it was';
  end $$`.execute(db);
  const { rows } = await sql<{ found: boolean }>`
    select exists (select 1 from pg_roles where rolname = 'cw_app_role') as found`.execute(db);
  if (rows[0]?.found) await grantAppRole(db);
  await guardChain(db);
}

async function grantAppRole(db: Kysely<unknown>): Promise<void> {
  await sql`grant usage on schema public to cw_app_role`.execute(db);
  await sql`grant select, insert, update, delete on all tables in schema public to cw_app_role`.execute(db);
  await sql`grant usage, select, update on all sequences in schema public to cw_app_role`.execute(db);
  await sql`alter default privileges in schema public
    grant select, insert, update, delete on tables to cw_app_role`.execute(db);
  await sql`alter default privileges in schema public
    grant usage, select, update on sequences to cw_app_role`.execute(db);
  await sql`revoke all on audit_events, audit_chain_head from cw_app_role`.execute(db);
  await sql`grant select, insert on audit_events to cw_app_role`.execute(db);
  await sql`grant select on audit_chain_head to cw_app_role`.execute(db);
  // The migrator's own bookkeeping is the owner's alone.
  await sql`revoke all on kysely_migration, kysely_migration_lock from cw_app_role`.execute(db);
}

async function guardChain(db: Kysely<unknown>): Promise<void> {
  await sql`alter function audit_events_chain() security definer
    set search_path = pg_catalog, public, pg_temp`.execute(db);
  await sql`revoke all on function audit_events_chain() from public`.execute(db);
  await sql`create function audit_chain_head_guard() returns trigger language plpgsql as $$
    begin
      -- Depth 1 is a statement on the head itself; the chain trigger's update of it is depth 2.
      if tg_op = 'UPDATE' and pg_trigger_depth() > 1 and new.id = old.id and new.seq = old.seq + 1 then
        return new;
      end if;
      raise exception 'audit_chain_head moves only with the chain (% refused)', tg_op
        using errcode = 'insufficient_privilege';
    end
  $$`.execute(db);
  await sql`create trigger audit_chain_head_guard before update or delete on audit_chain_head
    for each row execute function audit_chain_head_guard()`.execute(db);
  await sql`create trigger audit_chain_head_no_truncate before truncate on audit_chain_head
    for each statement execute function audit_chain_head_guard()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger audit_chain_head_no_truncate on audit_chain_head`.execute(db);
  await sql`drop trigger audit_chain_head_guard on audit_chain_head`.execute(db);
  await sql`drop function audit_chain_head_guard()`.execute(db);
  await sql`alter function audit_events_chain() security invoker reset search_path`.execute(db);
  await sql`grant execute on function audit_events_chain() to public`.execute(db);
  const { rows } = await sql<{ found: boolean }>`
    select exists (select 1 from pg_roles where rolname = 'cw_app_role') as found`.execute(db);
  if (!rows[0]?.found) return;
  await sql`alter default privileges in schema public
    revoke select, insert, update, delete on tables from cw_app_role`.execute(db);
  await sql`alter default privileges in schema public
    revoke usage, select, update on sequences from cw_app_role`.execute(db);
  await sql`revoke all on all tables in schema public from cw_app_role`.execute(db);
  await sql`revoke all on all sequences in schema public from cw_app_role`.execute(db);
  await sql`revoke usage on schema public from cw_app_role`.execute(db);
}
