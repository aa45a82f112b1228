import { type Kysely, sql } from 'kysely';

/**
 * Double-entry ledger (modules/ledger).
 *
 * Amounts are NUMERIC(78,0): integers of the asset's smallest unit. 78 digits hold any uint256,
 * so 18-decimal tokens never overflow (BIGINT tops out near 9.2 * 10^18, i.e. 9.2 ETH in wei).
 *
 * Every account's balance is >= 0 by CHECK, except `system_external`: it mirrors the world
 * outside the ledger (deposits come from it, withdrawals go to it), so it is exactly minus the
 * value held inside and is negative whenever users hold anything. With it, all balances of one
 * asset sum to zero, which reconciliation asserts.
 *
 * `ledger_entries` is the immutable journal: a trigger refuses UPDATE, DELETE and TRUNCATE, and a
 * deferred constraint trigger refuses a commit in which a transfer's entries do not sum to zero.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ledger_accounts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`kind in ('user_available', 'user_locked', 'system_hot_wallet', 'system_fees', 'system_liquidity', 'system_rewards', 'system_external')`,
        ),
    )
    .addColumn('user_id', 'uuid', (c) => c.references('users.id'))
    .addColumn('asset', 'text', (c) => c.notNull().check(sql`asset ~ '^[A-Z0-9]{2,10}$'`))
    .addColumn('balance', sql`numeric(78, 0)`, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('ledger_accounts_balance_non_negative', sql`kind = 'system_external' or balance >= 0`)
    .addCheckConstraint('ledger_accounts_owner', sql`(user_id is not null) = (kind like 'user\\_%')`)
    .execute();
  // One account per (kind, user, asset); NULLS NOT DISTINCT so each system account exists once per asset.
  await sql`
    alter table ledger_accounts add constraint ledger_accounts_kind_user_asset
    unique nulls not distinct (kind, user_id, asset)`.execute(db);
  await db.schema.createIndex('ledger_accounts_user_idx').on('ledger_accounts').column('user_id').execute();

  await db.schema
    .createTable('ledger_transfers')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) =>
      c.notNull().unique().check(sql`length(idempotency_key) between 1 and 128`),
    )
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('transfer_id', 'bigint', (c) => c.notNull().references('ledger_transfers.id'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('ledger_accounts.id'))
    .addColumn('amount', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`amount <> 0`))
    .addColumn('balance_before', sql`numeric(78, 0)`, (c) => c.notNull())
    .addColumn('balance_after', sql`numeric(78, 0)`, (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('ledger_entries_after_is_before_plus_amount', sql`balance_after = balance_before + amount`)
    .addUniqueConstraint('ledger_entries_one_leg_per_account', ['transfer_id', 'account_id'])
    .execute();
  await db.schema
    .createIndex('ledger_entries_account_idx')
    .on('ledger_entries')
    .columns(['account_id', 'id'])
    .execute();

  await sql`
    create function ledger_entries_immutable() returns trigger language plpgsql as $$
    begin
      raise exception 'ledger_entries is immutable (% refused)', tg_op using errcode = 'insufficient_privilege';
    end
    $$`.execute(db);
  await sql`
    create trigger ledger_entries_no_update_delete before update or delete on ledger_entries
    for each row execute function ledger_entries_immutable()`.execute(db);
  await sql`
    create trigger ledger_entries_no_truncate before truncate on ledger_entries
    for each statement execute function ledger_entries_immutable()`.execute(db);

  // Checked at COMMIT, once all legs of the transfer are in.
  await sql`
    create function ledger_transfer_balanced() returns trigger language plpgsql as $$
    declare
      total numeric;
    begin
      select sum(amount) into total from ledger_entries where transfer_id = new.transfer_id;
      if total <> 0 then
        raise exception 'ledger transfer % does not balance (sum %)', new.transfer_id, total
          using errcode = 'check_violation';
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create constraint trigger ledger_entries_balanced after insert on ledger_entries
    deferrable initially deferred for each row execute function ledger_transfer_balanced()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ledger_entries').execute();
  await db.schema.dropTable('ledger_transfers').execute();
  await db.schema.dropTable('ledger_accounts').execute();
  await sql`drop function if exists ledger_entries_immutable()`.execute(db);
  await sql`drop function if exists ledger_transfer_balanced()`.execute(db);
}
