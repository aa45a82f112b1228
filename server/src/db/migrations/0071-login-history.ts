import { type Kysely, sql } from 'kysely';

/**
 * Login history (issue 31, ASVS 16.3.1): every sign-in attempt on a known account, success or failure,
 * with time, IP, the raw User-Agent (parsed when shown), method and result. The owner sees the last 90
 * days (GET /api/me/security/logins); attempts on unknown names stay in audit_events only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table login_attempts (
    id bigint generated always as identity primary key,
    user_id uuid not null references users (id) on delete cascade,
    occurred_at timestamptz not null,
    ip text,
    user_agent text check (length(user_agent) <= 500),
    method text not null check (method in ('password', 'password+totp', 'password+recovery_code')),
    result text not null check (result in ('succeeded', 'failed', 'throttled', 'factor_pending', 'factor_failed'))
  )`.execute(db);
  await sql`create index login_attempts_user_idx on login_attempts (user_id, id desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table login_attempts`.execute(db);
}
