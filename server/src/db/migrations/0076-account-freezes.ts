import { type Kysely, sql } from 'kysely';

/**
 * Self-service account freeze (issue 31): one row per user who ever froze the account. Frozen while
 * `thaws_at` is null or still ahead; an unfreeze (password, factor, e-mail code) sets `thaws_at` to
 * the end of its hold, and freezing again clears it. Every freeze and unfreeze is also in audit_events.
 *
 * freeze_links: the "freeze my account" link of each security mail, by the SHA-256 of its random
 * token (the mail holds the only copy). A link works without a session and any number of times
 * (freezing is harmless to repeat); it can only freeze, never thaw.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table account_freezes (
    user_id uuid primary key references users (id) on delete cascade,
    frozen_at timestamptz not null,
    via text not null check (via in ('settings', 'mail_link')),
    unfreeze_requested_at timestamptz,
    thaws_at timestamptz,
    check ((unfreeze_requested_at is null) = (thaws_at is null)),
    check (thaws_at is null or thaws_at >= unfreeze_requested_at)
  )`.execute(db);
  await sql`create table freeze_links (
    token_hash bytea primary key check (length(token_hash) = 32),
    user_id uuid not null references users (id) on delete cascade,
    created_at timestamptz not null
  )`.execute(db);
  await sql`create index freeze_links_user_idx on freeze_links (user_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table freeze_links`.execute(db);
  await sql`drop table account_freezes`.execute(db);
}
