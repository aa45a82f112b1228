import { type Kysely, sql } from 'kysely';

// Enumerated values (language, currency, ...) are validated by the API, not by
// CHECK constraints, so that growing a list does not need a migration.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_settings')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('price_color', 'text', (c) => c.notNull())
    .addColumn('fiat_currency', 'text', (c) => c.notNull())
    .addColumn('quick_buy_enabled', 'boolean', (c) => c.notNull())
    .addColumn('quick_buy_coin', 'text', (c) => c.notNull())
    .addColumn('quick_buy_fiat_amount', sql`numeric(11, 2)`, (c) => c.notNull().check(sql`quick_buy_fiat_amount >= 0`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_settings').execute();
}
