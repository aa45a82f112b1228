import { type Kysely, sql } from 'kysely';

/**
 * Second factors (issue 31): an authenticator app (TOTP) and one-time recovery codes, and what a
 * session knows about them.
 *
 * - user_totp: the secret sealed with AES-256-GCM (the payout data key); on only once confirmed with
 *   a code; last_used_step is the newest RFC 6238 time step accepted, so a code is valid once (a
 *   conditional update, safe under concurrent submissions).
 * - recovery_codes: SHA-256(salt ‖ code) with a per-code salt; used_at marks the one use.
 * - sessions.factor_pending: a password sign-in of a user with a factor starts a session that no
 *   route accepts until the code is given (PostgreSQL, not process memory: any instance finishes it).
 * - sessions.authenticated_at: when this session last proved the password (and factor): changes to
 *   security data need it within the last 5 minutes. Null for sessions from before (they re-prove).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table user_totp (
    user_id uuid primary key references users (id) on delete cascade,
    secret_sealed bytea not null,
    confirmed_at timestamptz,
    last_used_step bigint,
    created_at timestamptz not null
  )`.execute(db);
  await sql`create table recovery_codes (
    id bigint generated always as identity primary key,
    user_id uuid not null references users (id) on delete cascade,
    salt bytea not null check (length(salt) = 16),
    code_hash bytea not null check (length(code_hash) = 32),
    created_at timestamptz not null,
    used_at timestamptz
  )`.execute(db);
  await sql`create index recovery_codes_user_idx on recovery_codes (user_id) where used_at is null`.execute(db);
  await sql`alter table sessions
    add column factor_pending boolean not null default false,
    add column authenticated_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions drop column factor_pending, drop column authenticated_at`.execute(db);
  await sql`drop table recovery_codes`.execute(db);
  await sql`drop table user_totp`.execute(db);
}
