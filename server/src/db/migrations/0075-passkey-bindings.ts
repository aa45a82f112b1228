import { type Kysely, sql } from 'kysely';

/**
 * Passkey hardening (review of issue 31):
 * - webauthn_challenges.binding: where a challenge was issued, checked when it is consumed. The
 *   signed-in session's id (register, step_up, reauth), the pending session's id (factor), or the
 *   SHA-256 of a nonce kept in a short-lived HttpOnly cookie (login). An answer made in one browser or
 *   session cannot be spent from another. Outstanding challenges (5 minutes at most) are dropped.
 * - purpose gains 'reauth': a re-authentication answer and a money step-up answer are not interchangeable.
 * - user_passkeys.suspended_at: set when the signature counter went backwards (a cloned key): the
 *   passkey no longer answers anything until the owner removes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from webauthn_challenges`.execute(db);
  await sql`alter table webauthn_challenges add column binding text not null check (length(binding) between 1 and 128)`.execute(
    db,
  );
  await sql`alter table webauthn_challenges drop constraint webauthn_challenges_purpose_check`.execute(db);
  await sql`alter table webauthn_challenges add constraint webauthn_challenges_purpose_check
    check (purpose in ('register', 'login', 'factor', 'step_up', 'reauth'))`.execute(db);
  await sql`alter table user_passkeys add column suspended_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table user_passkeys drop column suspended_at`.execute(db);
  await sql`delete from webauthn_challenges`.execute(db);
  await sql`alter table webauthn_challenges drop constraint webauthn_challenges_purpose_check`.execute(db);
  await sql`alter table webauthn_challenges add constraint webauthn_challenges_purpose_check
    check (purpose in ('register', 'login', 'factor', 'step_up'))`.execute(db);
  await sql`alter table webauthn_challenges drop column binding`.execute(db);
}
