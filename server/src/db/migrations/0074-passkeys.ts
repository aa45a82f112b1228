import { type Kysely, sql } from 'kysely';

/**
 * Passkeys (issue 31, WebAuthn): a second factor, a password-less sign-in (a discoverable credential
 * proves possession and, with user verification, the user: both factors) and a step-up on money routes.
 *
 * - user_passkeys: one row per registered credential (at most 10 per user, checked under a per-user
 *   lock in the service). credential_id is the base64url id the browser sends back; public_key the COSE
 *   key; sign_count the authenticator's counter (0 when it keeps none: then it is never compared);
 *   transports help the browser pick the authenticator; backup_eligible / backed_up the BE/BS flags
 *   (a synced passkey vs one bound to a device).
 * - webauthn_challenges: every ceremony's challenge, in PostgreSQL so any API instance can finish a
 *   ceremony another started; consumed by a conditional DELETE (single use), dead after expires_at.
 *   purpose says which ceremony may consume it; user_id binds registration and step-up challenges to
 *   their user (null for a password-less sign-in, whose user is only known from the credential).
 * - login_attempts.method gains 'passkey' (password-less) and 'password+passkey'.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table user_passkeys (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references users (id) on delete cascade,
    credential_id text not null unique check (length(credential_id) between 16 and 1400),
    public_key bytea not null check (length(public_key) <= 2048),
    sign_count bigint not null default 0 check (sign_count >= 0),
    transports text[] not null default '{}',
    device_type text not null check (device_type in ('singleDevice', 'multiDevice')),
    backed_up boolean not null,
    aaguid text,
    name text not null check (length(name) between 1 and 64),
    created_at timestamptz not null,
    last_used_at timestamptz
  )`.execute(db);
  await sql`create index user_passkeys_user_idx on user_passkeys (user_id)`.execute(db);
  await sql`create table webauthn_challenges (
    challenge text primary key check (length(challenge) between 16 and 128),
    purpose text not null check (purpose in ('register', 'login', 'factor', 'step_up')),
    user_id uuid references users (id) on delete cascade,
    created_at timestamptz not null,
    expires_at timestamptz not null
  )`.execute(db);
  await sql`create index webauthn_challenges_expiry_idx on webauthn_challenges (expires_at)`.execute(db);
  await sql`alter table login_attempts drop constraint login_attempts_method_check`.execute(db);
  await sql`alter table login_attempts add constraint login_attempts_method_check check (method in
    ('password', 'password+totp', 'password+recovery_code', 'password+passkey', 'passkey'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from login_attempts where method in ('password+passkey', 'passkey')`.execute(db);
  await sql`alter table login_attempts drop constraint login_attempts_method_check`.execute(db);
  await sql`alter table login_attempts add constraint login_attempts_method_check check (method in
    ('password', 'password+totp', 'password+recovery_code'))`.execute(db);
  await sql`drop table webauthn_challenges`.execute(db);
  await sql`drop table user_passkeys`.execute(db);
}
