import { type Kysely, sql } from 'kysely';

/**
 * Withdrawals, sends, address book, signer transactions (modules/withdrawals, sends, address-book, signer).
 *
 * Withdrawal states and the only allowed moves (also in modules/withdrawals/state-machine.ts; the trigger
 * below is the database's copy, so no code path can skip it):
 *   in_review -> review_approved | review_rejected
 *   review_approved -> transfer_in_progress
 *   transfer_in_progress -> transfer_successful | transfer_failed
 * A withdrawal is inserted in_review; its user, coin, network, address and amounts never change.
 * Migrations must not import app code: they describe the schema as it was at the time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const amount = sql`numeric(78, 0)`;
  await db.schema
    .createTable('withdrawals')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull().check(sql`length(idempotency_key) between 1 and 64`))
    .addColumn('coin', 'text', (c) => c.notNull())
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull().check(sql`length(address) between 1 and 100`))
    .addColumn('amount_minor', amount, (c) => c.notNull().check(sql`amount_minor > 0`))
    .addColumn('fee_minor', amount, (c) => c.notNull().check(sql`fee_minor >= 0`))
    .addColumn('arrival_minor', amount, (c) => c.generatedAlwaysAs(sql`amount_minor - fee_minor`).stored())
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`state in ('in_review', 'review_approved', 'review_rejected', 'transfer_in_progress', 'transfer_successful', 'transfer_failed')`,
        ),
    )
    .addColumn('review', 'text', (c) => c.check(sql`review in ('auto', 'manual')`))
    .addColumn('reason', 'text', (c) => c.check(sql`length(reason) <= 500`))
    .addColumn('tx_hash', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('withdrawals_fee_below_amount', sql`fee_minor < amount_minor`)
    .addCheckConstraint('withdrawals_rejected_has_reason', sql`state <> 'review_rejected' or reason is not null`)
    .addUniqueConstraint('withdrawals_user_key', ['user_id', 'idempotency_key'])
    .execute();
  await db.schema
    .createIndex('withdrawals_user_created_idx')
    .on('withdrawals')
    .columns(['user_id', 'created_at desc', 'id desc'])
    .execute();
  // The signer and the ops list look for work by state; finished withdrawals are the bulk and not indexed.
  await sql`create index withdrawals_open_idx on withdrawals (state, created_at)
    where state in ('in_review', 'review_approved', 'transfer_in_progress')`.execute(db);

  await sql`
    create function withdrawals_transition() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        if new.state <> 'in_review' then
          raise exception 'a withdrawal starts in_review, not %', new.state using errcode = 'check_violation';
        end if;
        return new;
      end if;
      if new.user_id <> old.user_id or new.coin <> old.coin or new.network <> old.network
         or new.address <> old.address or new.amount_minor <> old.amount_minor or new.fee_minor <> old.fee_minor
         or new.idempotency_key <> old.idempotency_key or new.created_at <> old.created_at then
        raise exception 'withdrawal % is immutable except for its state', old.id using errcode = 'check_violation';
      end if;
      if new.state is distinct from old.state and not (
           (old.state = 'in_review' and new.state in ('review_approved', 'review_rejected'))
        or (old.state = 'review_approved' and new.state = 'transfer_in_progress')
        or (old.state = 'transfer_in_progress' and new.state in ('transfer_successful', 'transfer_failed'))
      ) then
        raise exception 'withdrawal % cannot move from % to %', old.id, old.state, new.state
          using errcode = 'check_violation';
      end if;
      return new;
    end
    $$`.execute(db);
  await sql`
    create trigger withdrawals_transition before insert or update on withdrawals
    for each row execute function withdrawals_transition()`.execute(db);

  // One signed transaction per withdrawal, recorded BEFORE it is broadcast; nonces never reused per sender.
  await db.schema
    .createTable('signer_transactions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('withdrawal_id', 'uuid', (c) => c.notNull().unique().references('withdrawals.id'))
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('chain_id', 'bigint', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('nonce', 'bigint', (c) => c.notNull().check(sql`nonce >= 0`))
    .addColumn('tx_hash', 'text', (c) => c.notNull().unique())
    .addColumn('raw_tx', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('signed', 'mined', 'reverted')`))
    .addColumn('broadcast_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('block_number', 'bigint')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('signer_transactions_sender_nonce', ['chain_id', 'from_address', 'nonce'])
    .execute();

  await db.schema
    .createTable('sends')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('from_user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('to_user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull().check(sql`length(idempotency_key) between 1 and 64`))
    .addColumn('coin', 'text', (c) => c.notNull())
    .addColumn('amount_minor', amount, (c) => c.notNull().check(sql`amount_minor > 0`))
    .addColumn('recipient_kind', 'text', (c) => c.notNull().check(sql`recipient_kind in ('email', 'address')`))
    .addColumn('recipient', 'text', (c) => c.notNull().check(sql`length(recipient) between 1 and 254`))
    .addColumn('network', 'text')
    .addColumn('ledger_transfer_id', 'bigint', (c) => c.notNull().references('ledger_transfers.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('sends_not_to_self', sql`from_user_id <> to_user_id`)
    .addUniqueConstraint('sends_user_key', ['from_user_id', 'idempotency_key'])
    .execute();
  await db.schema
    .createIndex('sends_from_created_idx')
    .on('sends')
    .columns(['from_user_id', 'created_at desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('sends_to_created_idx')
    .on('sends')
    .columns(['to_user_id', 'created_at desc', 'id desc'])
    .execute();

  await db.schema
    .createTable('address_book')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull().check(sql`length(name) between 1 and 40`))
    .addColumn('wallet_type', 'text', (c) => c.notNull().check(sql`wallet_type in ('personal', 'exchange', 'other')`))
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull().check(sql`length(address) between 1 and 100`))
    .addColumn('remark', 'text', (c) => c.check(sql`length(remark) <= 100`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('address_book_user_network_address', ['user_id', 'network', 'address'])
    .execute();
  await db.schema.createIndex('address_book_user_idx').on('address_book').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('address_book').execute();
  await db.schema.dropTable('sends').execute();
  await db.schema.dropTable('signer_transactions').execute();
  await db.schema.dropTable('withdrawals').execute();
  await sql`drop function if exists withdrawals_transition()`.execute(db);
}
