import { type Kysely, sql } from 'kysely';

/**
 * The journal's integrity checks, per statement instead of per row (issue 14). Same guarantees:
 *
 * - A transfer's entries sum to zero. Migration 0006 checked this at COMMIT with a deferred trigger
 *   that ran once per entry row (one lookup each). Every writer inserts all legs of a transfer in one
 *   INSERT (ledger_post, ledger_post_batch, seeds), so the check now runs once per INSERT statement
 *   over its transition table: every transfer the statement touched must sum to zero over ALL its
 *   entries. That is stricter (a transfer must balance after each statement, not only at commit).
 * - Every entry names an existing transfer and account. The foreign keys checked this with one locked
 *   lookup per row (and per key); the statement trigger checks the inserted rows set-wise. What a
 *   foreign key adds beyond the check at insert — that the referenced row cannot go away later — is
 *   kept by refusing DELETE and TRUNCATE of transfers and accounts outright (nothing deletes them), and
 *   any change to an account's identity (id, kind, user, asset) or to a transfer.
 *
 * Measured with bench:ledger (batched, spread over 10,000 accounts): the per-row foreign keys and the
 * deferred trigger took about a third of the time of a batch. The reconciliation (`ops reconcile`)
 * still re-checks zero sums and balances from the journal.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ledger_entries_checked() returns trigger language plpgsql as $$
    declare
      v_transfer bigint;
      v_account bigint;
      v_unbalanced bigint;
    begin
      -- One query (its fixed cost is paid per INSERT). Correlated scalar subqueries, not NOT EXISTS: a
      -- query without parameters keeps the plan of its first run in a session, and a first run over a
      -- large insert (a seed) would plan hash joins over whole tables for every later, small one. A
      -- subplan is always one index probe a row.
      select
        (select e.transfer_id from inserted e
         where (select t.id from ledger_transfers t where t.id = e.transfer_id) is null limit 1),
        (select e.account_id from inserted e
         where (select a.id from ledger_accounts a where a.id = e.account_id) is null limit 1),
        (select x.transfer_id from (select distinct i.transfer_id from inserted i) x
         where (select sum(e.amount) from ledger_entries e where e.transfer_id = x.transfer_id) <> 0 limit 1)
      into v_transfer, v_account, v_unbalanced;
      if v_transfer is not null then
        raise exception 'ledger entry names transfer % that does not exist', v_transfer using errcode = 'foreign_key_violation';
      end if;
      if v_account is not null then
        raise exception 'ledger entry names account % that does not exist', v_account using errcode = 'foreign_key_violation';
      end if;
      if v_unbalanced is not null then
        raise exception 'ledger transfer % does not balance', v_unbalanced using errcode = 'check_violation';
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger ledger_entries_checked after insert on ledger_entries
    referencing new table as inserted for each statement execute function ledger_entries_checked()`.execute(db);
  await sql`drop trigger ledger_entries_balanced on ledger_entries`.execute(db);
  await sql`alter table ledger_entries drop constraint ledger_entries_transfer_id_fkey`.execute(db);
  await sql`alter table ledger_entries drop constraint ledger_entries_account_id_fkey`.execute(db);

  await sql`
    create function ledger_rows_kept() returns trigger language plpgsql as $$
    begin
      raise exception '% of % refused: the journal refers to it', tg_op, tg_table_name using errcode = 'insufficient_privilege';
    end
    $$`.execute(db);
  for (const table of ['ledger_transfers', 'ledger_accounts']) {
    await sql`
      create trigger ${sql.id(`${table}_kept`)} before delete on ${sql.table(table)}
      for each row execute function ledger_rows_kept()`.execute(db);
    await sql`
      create trigger ${sql.id(`${table}_kept_truncate`)} before truncate on ${sql.table(table)}
      for each statement execute function ledger_rows_kept()`.execute(db);
  }
  // Only an account's balance changes; a transfer never does. UPDATE OF fires only when the
  // statement names those columns, so balance updates pay nothing for it.
  await sql`
    create trigger ledger_accounts_identity_kept before update of id, kind, user_id, asset on ledger_accounts
    for each row when (old.id is distinct from new.id or old.kind is distinct from new.kind
      or old.user_id is distinct from new.user_id or old.asset is distinct from new.asset)
    execute function ledger_rows_kept()`.execute(db);
  await sql`
    create trigger ledger_transfers_immutable before update on ledger_transfers
    for each row execute function ledger_rows_kept()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger ledger_transfers_immutable on ledger_transfers`.execute(db);
  await sql`drop trigger ledger_accounts_identity_kept on ledger_accounts`.execute(db);
  for (const table of ['ledger_transfers', 'ledger_accounts']) {
    await sql`drop trigger ${sql.id(`${table}_kept`)} on ${sql.table(table)}`.execute(db);
    await sql`drop trigger ${sql.id(`${table}_kept_truncate`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function ledger_rows_kept()`.execute(db);
  await sql`
    alter table ledger_entries
      add constraint ledger_entries_transfer_id_fkey foreign key (transfer_id) references ledger_transfers (id),
      add constraint ledger_entries_account_id_fkey foreign key (account_id) references ledger_accounts (id)`.execute(
    db,
  );
  await sql`
    create constraint trigger ledger_entries_balanced after insert on ledger_entries
    deferrable initially deferred for each row execute function ledger_transfer_balanced()`.execute(db);
  await sql`drop trigger ledger_entries_checked on ledger_entries`.execute(db);
  await sql`drop function ledger_entries_checked()`.execute(db);
}
