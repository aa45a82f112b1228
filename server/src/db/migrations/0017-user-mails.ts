import { type Kysely, sql } from 'kysely';

/**
 * Mail a user writes from the app (modules/user-mail): sent from the service's address with the user's
 * e-mail as Reply-To, through the same outbox (a crash never loses it), so the outbox gets `reply_to`.
 * A user mail's state is its outbox row's (queued, sent, or failed with the SMTP reason); sending a
 * failed one again makes a new record pointing at the old one.
 * Migrations must not import app code: they describe the schema as it was at the time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table outbox add column reply_to text`.execute(db);
  await sql`create table user_mails (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references users (id),
    recipients text[] not null check (cardinality(recipients) between 1 and 5),
    subject text not null check (char_length(subject) between 1 and 200 and subject !~ '[\\r\\n]'),
    body text not null check (char_length(body) between 1 and 10000),
    outbox_id bigint not null unique references outbox (id),
    resent_from uuid references user_mails (id),
    created_at timestamptz not null
  )`.execute(db);
  await sql`create index user_mails_user_idx on user_mails (user_id, created_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table user_mails`.execute(db);
  await sql`alter table outbox drop column reply_to`.execute(db);
}
