import { type Kysely, sql } from 'kysely';

/**
 * Mail may carry files kept in the upload store (an operator's pictures in an answer to a left
 * message): the outbox row names them by object key, and the worker reads them when it sends, so
 * the row stays small and a retry sends the same bytes.
 * Migrations must not import app code: they describe the schema as it was at the time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table outbox add column attachments jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table outbox drop column attachments`.execute(db);
}
