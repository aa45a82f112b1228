import { type Kysely, sql } from 'kysely';

/**
 * New-device confirmation (issue 31):
 * - known_devices: the browsers a user has confirmed, by the SHA-256 of the random id in their
 *   long-lived device cookie (never the id itself: a database reader cannot mint a known device).
 *   A user keeps at most a bounded number (security/devices-repository.ts prunes the least recently seen).
 * - device_confirmations: a sign-in from an unknown browser, waiting for the e-mailed code or link
 *   (deleted with its session by the sessions retention sweep: on delete cascade).
 *   One per pending session; the code is a verification_codes row (its attempt charging is atomic),
 *   the link a random token stored hashed. confirmed_at set = approved; the session is then usable.
 * - sessions.device_pending: such a session is refused by every route (DEVICE_CONFIRMATION_REQUIRED)
 *   but the confirmation's own routes; it lives 15 minutes.
 * - login_attempts.result gains device_pending and device_confirmed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table known_devices (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references users (id) on delete cascade,
    device_hash bytea not null check (length(device_hash) = 32),
    user_agent text check (length(user_agent) <= 500),
    first_seen_at timestamptz not null,
    last_seen_at timestamptz not null,
    unique (user_id, device_hash)
  )`.execute(db);
  await sql`alter table sessions add column device_pending boolean not null default false`.execute(db);
  await sql`create table device_confirmations (
    session_id uuid primary key references sessions (id) on delete cascade,
    user_id uuid not null references users (id) on delete cascade,
    device_hash bytea not null check (length(device_hash) = 32),
    link_hash bytea not null unique check (length(link_hash) = 32),
    code_id uuid references verification_codes (id) on delete set null,
    method text not null check (char_length(method) <= 40),
    created_at timestamptz not null,
    expires_at timestamptz not null,
    confirmed_at timestamptz
  )`.execute(db);
  await sql`create index device_confirmations_user_idx on device_confirmations (user_id, created_at)`.execute(db);
  await sql`alter table login_attempts drop constraint login_attempts_result_check`.execute(db);
  await sql`alter table login_attempts add constraint login_attempts_result_check check (result in
    ('succeeded', 'failed', 'throttled', 'factor_pending', 'factor_failed', 'device_pending', 'device_confirmed'))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from login_attempts where result in ('device_pending', 'device_confirmed')`.execute(db);
  await sql`alter table login_attempts drop constraint login_attempts_result_check`.execute(db);
  await sql`alter table login_attempts add constraint login_attempts_result_check check (result in
    ('succeeded', 'failed', 'throttled', 'factor_pending', 'factor_failed'))`.execute(db);
  await sql`drop table device_confirmations`.execute(db);
  await sql`alter table sessions drop column device_pending`.execute(db);
  await sql`drop table known_devices`.execute(db);
}
