import { type Kysely, sql } from 'kysely';

// Transactional outbox: mail is written in the same transaction as its cause and sent by a worker.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('html', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'timestamptz')
    /** `smtp` or `dev-mailbox`. */
    .addColumn('delivered_via', 'text')
    .addColumn('failed_at', 'timestamptz')
    .execute();
  await sql`create index outbox_pending_idx on outbox (next_attempt_at) where sent_at is null and failed_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('outbox').execute();
}
