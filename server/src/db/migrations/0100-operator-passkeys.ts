import { type Kysely, sql } from 'kysely';

/**
 * Operators' passkeys (issue 32): an operator signs in to the console with a passkey alone (a
 * discoverable credential with user verification proves possession and the person: phishing-resistant,
 * unlike a password, which never works alone).
 *
 * Tables of their own, apart from users' (user_passkeys, webauthn_challenges): a user's passkey can
 * never be looked up at the console, an operator's never in the app; they are bound to the console's
 * origin and RP ID (OPS_ORIGIN), not the app's.
 *
 * - operator_passkeys: one row per credential (at most 10 per operator, checked under the operator's
 *   row lock); sign_count 0 when the authenticator keeps none; suspended_at when the counter went
 *   backwards (a cloned key): refused until removed.
 * - operator_webauthn_challenges: single use (conditional DELETE), 5 minutes; purpose says which
 *   ceremony may consume it; operator_id binds a registration to its operator (null for a sign-in,
 *   whose operator is known only from the credential); binding is the session id (registration) or
 *   the SHA-256 of the sign-in nonce cookie (the browser that asked).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table operator_passkeys (
    id uuid primary key default gen_random_uuid(),
    operator_id uuid not null references operators (id) on delete cascade,
    credential_id text not null unique check (length(credential_id) between 16 and 1400),
    public_key bytea not null check (length(public_key) <= 2048),
    sign_count bigint not null default 0 check (sign_count >= 0),
    transports text[] not null default '{}',
    device_type text not null check (device_type in ('singleDevice', 'multiDevice')),
    backed_up boolean not null,
    name text not null check (length(name) between 1 and 64),
    created_at timestamptz not null,
    last_used_at timestamptz,
    suspended_at timestamptz
  )`.execute(db);
  await sql`create index operator_passkeys_operator_idx on operator_passkeys (operator_id)`.execute(db);
  await sql`create table operator_webauthn_challenges (
    challenge text primary key check (length(challenge) between 16 and 128),
    purpose text not null check (purpose in ('register', 'login')),
    operator_id uuid references operators (id) on delete cascade,
    binding text not null check (length(binding) between 16 and 128),
    created_at timestamptz not null,
    expires_at timestamptz not null,
    check ((purpose = 'login') = (operator_id is null))
  )`.execute(db);
  await sql`create index operator_webauthn_challenges_expiry_idx on operator_webauthn_challenges (expires_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table operator_webauthn_challenges`.execute(db);
  await sql`drop table operator_passkeys`.execute(db);
}
