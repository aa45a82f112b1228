import { type Kysely, sql } from 'kysely';

/**
 * Live support chat (modules/chat): one conversation per user with support, its messages, and what
 * each side has read. A message's id is its place in the stream (server-sent events resume from the
 * last id a client saw); new messages of one conversation are written under a lock on its row, so
 * their ids commit in order. `client_id` makes sending idempotent: a retried send is not a second
 * message. Presence (`user_online_until`) lives here, not in a process, so any API instance can tell
 * whether the user is connected (an operator's reply to an offline user also goes out by e-mail).
 * Migrations must not import app code: they describe the schema as it was at the time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table chat_conversations (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null unique references users (id),
    created_at timestamptz not null,
    last_message_at timestamptz,
    user_read_id bigint not null default 0,
    operator_read_id bigint not null default 0,
    user_online_until timestamptz,
    emailed_at timestamptz
  )`.execute(db);
  await sql`create index chat_conversations_activity_idx on chat_conversations (last_message_at desc)`.execute(db);
  await sql`create table chat_messages (
    id bigint generated always as identity primary key,
    conversation_id uuid not null references chat_conversations (id),
    author text not null check (author in ('user', 'operator')),
    operator_id uuid references operators (id),
    client_id uuid not null,
    text text not null check (char_length(text) <= 2000),
    upload_id text references uploads (id),
    created_at timestamptz not null,
    unique (conversation_id, client_id),
    check ((author = 'operator') = (operator_id is not null)),
    check (char_length(text) > 0 or upload_id is not null)
  )`.execute(db);
  await sql`create index chat_messages_conversation_idx on chat_messages (conversation_id, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table chat_messages`.execute(db);
  await sql`drop table chat_conversations`.execute(db);
}
