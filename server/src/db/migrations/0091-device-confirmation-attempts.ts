import { type Kysely, sql } from 'kysely';

/**
 * device_confirmations.code_attempts: the code guesses charged to one waiting sign-in, across all of
 * its mails. The budget was per code, so each resend bought 5 fresh guesses (review s6b, finding 4);
 * now a waiting sign-in gets 5 in all, and it ends when they are spent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table device_confirmations
    add column code_attempts integer not null default 0 check (code_attempts >= 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table device_confirmations drop column code_attempts`.execute(db);
}
