import { type Kysely, sql } from 'kysely';

/**
 * Who decided a manual review of a withdrawal (`npm run ops -- withdrawals approve|reject <id> --operator
 * <name>`): the operator's name, null for automatic reviews and rows from before (issue 38: an approval
 * recorded no approver). The audit log keeps the same fact with the operator's id.
 * Migrations must not import app code: they describe the schema as it was at the time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table withdrawals add column reviewed_by text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table withdrawals drop column reviewed_by`.execute(db);
}
