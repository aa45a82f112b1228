import { type Kysely, sql } from 'kysely';

/**
 * Uploads (modules/uploads) and support tickets (modules/tickets).
 *
 * An upload is a file a user or an operator sent, already checked (type sniffed from its bytes) and,
 * for images, re-encoded. Its id is a random 128-bit token (never a counter: ids appear in URLs).
 * The stored objects are content-addressed (`display_key`, `original_key`: sha-256 of the bytes), so
 * two uploads of the same picture share one object. `thread_user_id` is the user whose ticket or chat
 * the file was attached to: that user may read it even when an operator sent it. A visitor (leave-a-
 * message without an account) owns an upload through the hash of a random token in their cookie.
 * Migrations must not import app code: they describe the schema as it was at the time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table uploads (
    id text primary key check (id ~ '^[A-Za-z0-9_-]{22}$'),
    owner_user_id uuid references users (id),
    owner_operator_id uuid references operators (id),
    owner_visitor text check (owner_visitor ~ '^[0-9a-f]{64}$'),
    uploader_ip text,
    place text not null check (place in ('ticket', 'chat', 'message')),
    kind text not null check (kind in ('image', 'file')),
    media_type text not null,
    name text not null check (char_length(name) between 1 and 120),
    size_bytes bigint not null check (size_bytes >= 0),
    width integer,
    height integer,
    display_key text,
    original_key text,
    attached_to text,
    attach_order smallint,
    thread_user_id uuid references users (id),
    created_at timestamptz not null,
    check (num_nonnulls(owner_user_id, owner_operator_id, owner_visitor) = 1),
    check (display_key is not null or original_key is not null)
  )`.execute(db);
  await sql`create index uploads_owner_idx on uploads (owner_user_id) where owner_user_id is not null`.execute(db);
  await sql`create index uploads_ip_idx on uploads (uploader_ip, created_at) where owner_visitor is not null`.execute(
    db,
  );
  await sql`create index uploads_attached_idx on uploads (attached_to) where attached_to is not null`.execute(db);

  await sql`create table tickets (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references users (id),
    email text not null check (char_length(email) <= 254),
    tx_ref text check (char_length(tx_ref) <= 100),
    state text not null check (state in ('pending_reply', 'reply_received')),
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`.execute(db);
  await sql`create index tickets_user_idx on tickets (user_id, created_at desc, id desc)`.execute(db);
  await sql`create index tickets_state_idx on tickets (state, updated_at)`.execute(db);

  // Messages are ordered by their id: insertion order, even for two written in the same instant.
  await sql`create table ticket_messages (
    id bigint generated always as identity primary key,
    ticket_id uuid not null references tickets (id),
    author text not null check (author in ('user', 'operator')),
    operator_id uuid references operators (id),
    text text not null check (char_length(text) <= 5000),
    created_at timestamptz not null,
    check ((author = 'operator') = (operator_id is not null))
  )`.execute(db);
  await sql`create index ticket_messages_ticket_idx on ticket_messages (ticket_id, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table ticket_messages`.execute(db);
  await sql`drop table tickets`.execute(db);
  await sql`drop table uploads`.execute(db);
}
