import { type Kysely, sql } from 'kysely';

/**
 * Operators' roles and second factor (issue 32).
 *
 * - roles: any of support, compliance, finance, admin. `admin` and `finance` never together
 *   (separation of duties: whoever manages operator accounts cannot also approve money). Existing
 *   operators get admin + support: today every operator is trusted with the whole console (support
 *   work), and someone must be able to open the new Operators page; no money role is handed out.
 * - No operator works with a password alone: sign-in needs the authenticator app (totp_secret_sealed,
 *   AES-256-GCM with the payout data key, confirmed at enrolment; totp_last_step makes a code valid once).
 *   An operator without a confirmed app cannot sign in until enrolled through a one-time link
 *   (`npm run ops -- operators enrol <name>`): enrolment_token_hash (SHA-256) and its expiry. Existing
 *   operators therefore need a new link once; their password alone no longer opens the console.
 * - password_hash is null until the operator sets it at enrolment.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table operators
    add column roles text[] not null default '{}',
    add column totp_secret_sealed bytea,
    add column totp_confirmed_at timestamptz,
    add column totp_last_step bigint,
    add column enrolment_token_hash bytea unique,
    add column enrolment_expires_at timestamptz,
    alter column password_hash drop not null`.execute(db);
  await sql`update operators set roles = array['admin', 'support']`.execute(db);
  await sql`alter table operators
    add constraint operators_roles_known check (roles <@ array['support', 'compliance', 'finance', 'admin']),
    add constraint operators_admin_not_finance check (not (roles @> array['admin', 'finance']))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Operators never enrolled get an unusable hash and are disabled (the column was not null before).
  await sql`update operators set password_hash = '!', disabled_at = coalesce(disabled_at, now())
    where password_hash is null`.execute(db);
  await sql`alter table operators
    alter column password_hash set not null,
    drop constraint operators_admin_not_finance,
    drop constraint operators_roles_known,
    drop column roles,
    drop column totp_secret_sealed,
    drop column totp_confirmed_at,
    drop column totp_last_step,
    drop column enrolment_token_hash,
    drop column enrolment_expires_at`.execute(db);
}
