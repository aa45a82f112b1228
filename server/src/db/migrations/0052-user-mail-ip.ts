import { type Kysely, sql } from 'kysely';

/**
 * The IP a user mail was sent from (issue 38): the daily limit counts per IP as well as per account, so
 * a handful of fresh accounts on one machine cannot multiply it. Null for rows from before.
 * Migrations must not import app code: they describe the schema as it was at the time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table user_mails add column ip text`.execute(db);
  await sql`create index user_mails_ip_idx on user_mails (ip, created_at) where ip is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index user_mails_ip_idx`.execute(db);
  await sql`alter table user_mails drop column ip`.execute(db);
}
