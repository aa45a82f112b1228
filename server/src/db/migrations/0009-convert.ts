import { type Kysely, sql } from 'kysely';

/**
 * Convert (modules/convert): quotes and the conversions that accepted them.
 *
 * A quote is a priced offer valid until `expires_at` (a short TTL); the rate is stored as an
 * exact rational (rate_num / rate_den, whole `to` coins per whole `from` coin) so the amounts a
 * conversion moves are recomputable from it. A conversion exists at most once per quote
 * (`quote_id` unique): accepting one quote twice converts once. Amounts are NUMERIC(78,0) minor units.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('convert_quotes')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('from_asset', 'text', (c) => c.notNull())
    .addColumn('to_asset', 'text', (c) => c.notNull())
    .addColumn('amount_minor', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`amount_minor > 0`))
    .addColumn('fee_minor', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`fee_minor >= 0`))
    .addColumn('receive_minor', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`receive_minor > 0`))
    .addColumn('rate_num', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`rate_num > 0`))
    .addColumn('rate_den', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`rate_den > 0`))
    .addColumn('min_minor', sql`numeric(78, 0)`, (c) => c.notNull())
    .addColumn('max_minor', sql`numeric(78, 0)`, (c) => c.notNull())
    .addColumn('price_source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    /** Set when the quote expired and was replaced by a new one (the chain the user followed). */
    .addColumn('replaced_by', 'uuid', (c) => c.references('convert_quotes.id'))
    .addCheckConstraint('convert_quotes_distinct_assets', sql`from_asset <> to_asset`)
    .addCheckConstraint('convert_quotes_fee_below_amount', sql`fee_minor < amount_minor`)
    .addCheckConstraint('convert_quotes_expiry_after_creation', sql`expires_at > created_at`)
    .execute();
  await db.schema
    .createIndex('convert_quotes_user_idx')
    .on('convert_quotes')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('conversions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('quote_id', 'uuid', (c) => c.notNull().unique().references('convert_quotes.id'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('from_asset', 'text', (c) => c.notNull())
    .addColumn('to_asset', 'text', (c) => c.notNull())
    .addColumn('amount_minor', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`amount_minor > 0`))
    .addColumn('fee_minor', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`fee_minor >= 0`))
    .addColumn('receive_minor', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`receive_minor > 0`))
    .addColumn('rate_num', sql`numeric(78, 0)`, (c) => c.notNull())
    .addColumn('rate_den', sql`numeric(78, 0)`, (c) => c.notNull())
    /** The two linked ledger transfers: the user's coin in, the other coin out. */
    .addColumn('give_transfer_id', 'bigint', (c) => c.notNull().references('ledger_transfers.id'))
    .addColumn('get_transfer_id', 'bigint', (c) => c.notNull().references('ledger_transfers.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('conversions_distinct_assets', sql`from_asset <> to_asset`)
    .execute();
  // History: newest first, keyset pagination on (created_at, id).
  await db.schema
    .createIndex('conversions_user_history_idx')
    .on('conversions')
    .columns(['user_id', 'created_at desc', 'id desc'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('conversions').execute();
  await db.schema.dropTable('convert_quotes').execute();
}
