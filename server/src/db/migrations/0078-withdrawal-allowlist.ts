import { type Kysely, sql } from 'kysely';

/**
 * Withdrawal allowlist (issue 31): when on, withdrawals and sends go only to address-book entries
 * marked trusted, each usable only after a hold from when it was trusted; turning the allowlist off
 * takes effect after the same hold. Both ends of a hold are stored when it starts (usable_at,
 * off_at), so a later change of the configured hold never moves a promise already made.
 *
 * - address_book.trusted_at / usable_at: null when the entry is not trusted; both set together.
 * - withdrawal_allowlists: one row per user who turned it on. On while off_at is null or in the
 *   future; off_at is when a requested turn-off takes effect.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table address_book
    add column trusted_at timestamptz,
    add column usable_at timestamptz,
    add constraint address_book_trust_check
      check ((trusted_at is null) = (usable_at is null) and (usable_at is null or usable_at >= trusted_at))`.execute(
    db,
  );
  await sql`create table withdrawal_allowlists (
    user_id uuid primary key references users (id) on delete cascade,
    enabled_at timestamptz not null,
    off_at timestamptz,
    updated_at timestamptz not null,
    check (off_at is null or off_at > enabled_at)
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table withdrawal_allowlists`.execute(db);
  await sql`alter table address_book drop constraint address_book_trust_check,
    drop column usable_at, drop column trusted_at`.execute(db);
}
