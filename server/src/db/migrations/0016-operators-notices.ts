import { type Kysely, sql } from 'kysely';

/**
 * Operators (modules/operators) and notices (modules/notices).
 *
 * Operators are people who answer support and publish announcements: accounts of their own, never
 * users, with their own sessions (a user session cannot reach /api/ops, an operator session cannot
 * act as a user).
 *
 * Announcements are public (visitors see them too): a category, a pinned flag, a publish window and a
 * title and Markdown body per language (zh-CN required: the fallback), with the sanitised HTML made
 * once at publish time. System notices are per user, written by the event that causes them in the
 * same transaction (a deposit credited, a withdrawal completed or rejected...), as a kind plus
 * parameters: the screen words them in the reader's language. `dedupe_key` makes an event's notice
 * idempotent. Migrations must not import app code: they describe the schema as it was at the time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table operators (
    id uuid primary key default gen_random_uuid(),
    name text not null unique check (name ~ '^[a-z0-9_]{3,32}$'),
    password_hash text not null,
    created_at timestamptz not null,
    disabled_at timestamptz
  )`.execute(db);
  await sql`create table operator_sessions (
    id uuid primary key default gen_random_uuid(),
    operator_id uuid not null references operators (id),
    token_hash bytea not null unique,
    created_at timestamptz not null,
    last_seen_at timestamptz not null,
    expires_at timestamptz not null,
    revoked_at timestamptz
  )`.execute(db);
  await sql`create index operator_sessions_operator_idx on operator_sessions (operator_id)`.execute(db);

  await sql`create table announcements (
    id uuid primary key default gen_random_uuid(),
    category text not null check (category in ('news', 'maintenance', 'listing', 'activity')),
    pinned boolean not null default false,
    publish_at timestamptz not null,
    expire_at timestamptz,
    withdrawn_at timestamptz,
    created_by uuid references operators (id),
    created_at timestamptz not null,
    updated_at timestamptz not null,
    check (expire_at is null or expire_at > publish_at)
  )`.execute(db);
  await sql`create index announcements_live_idx on announcements (publish_at desc, id desc)
    where withdrawn_at is null`.execute(db);
  await sql`create table announcement_texts (
    announcement_id uuid not null references announcements (id) on delete cascade,
    language text not null check (language in ('zh-CN', 'zh-TW', 'en', 'es')),
    title text not null check (char_length(title) between 1 and 200),
    body_md text not null check (char_length(body_md) <= 20000),
    body_html text not null,
    primary key (announcement_id, language)
  )`.execute(db);
  await sql`create table announcement_reads (
    user_id uuid not null references users (id),
    announcement_id uuid not null references announcements (id) on delete cascade,
    read_at timestamptz not null,
    primary key (user_id, announcement_id)
  )`.execute(db);

  await sql`create table user_notices (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references users (id),
    kind text not null check (kind in ('deposit_credited', 'withdrawal_completed', 'withdrawal_rejected',
      'support_reply', 'reward_delivered')),
    params jsonb not null default '{}'::jsonb,
    dedupe_key text not null unique,
    created_at timestamptz not null,
    read_at timestamptz
  )`.execute(db);
  await sql`create index user_notices_list_idx on user_notices (user_id, created_at desc, id desc)`.execute(db);
  await sql`create index user_notices_unread_idx on user_notices (user_id) where read_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table user_notices`.execute(db);
  await sql`drop table announcement_reads`.execute(db);
  await sql`drop table announcement_texts`.execute(db);
  await sql`drop table announcements`.execute(db);
  await sql`drop table operator_sessions`.execute(db);
  await sql`drop table operators`.execute(db);
}
