import { type Kysely, sql } from 'kysely';

/**
 * Leave-a-message (modules/support): visitors and users leave a phone number (with its country) or an
 * e-mail address and a message; operators answer (by e-mail when there is an address, and as a system
 * notice when the writer was signed in). The IP is kept for the per-IP limit, counted here.
 * Migrations must not import app code: they describe the schema as it was at the time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table support_messages (
    id uuid primary key default gen_random_uuid(),
    user_id uuid references users (id),
    phone_country text check (phone_country ~ '^[A-Z]{2}$'),
    phone_e164 text check (phone_e164 ~ '^\\+[1-9][0-9]{6,14}$'),
    email text check (char_length(email) <= 254),
    content text not null check (char_length(content) between 1 and 2000),
    ip text not null,
    created_at timestamptz not null,
    answer text check (char_length(answer) <= 5000),
    answered_at timestamptz,
    answered_by uuid references operators (id),
    check (phone_e164 is not null or email is not null),
    check ((phone_e164 is null) = (phone_country is null)),
    check ((answer is null) = (answered_at is null))
  )`.execute(db);
  await sql`create index support_messages_ip_idx on support_messages (ip, created_at)`.execute(db);
  await sql`create index support_messages_open_idx on support_messages (created_at) where answered_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table support_messages`.execute(db);
}
