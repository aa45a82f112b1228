import { type Kysely, sql } from 'kysely';

/**
 * Freeze links expire (review of issue 31, F4): a link in an old mail (a forwarded mail, a mail
 * archive, a mailbox once compromised) was a permanent switch that ended the owner's sessions and
 * vetoed every unfreeze. expires_at is set when the link is made (30 days, security/freeze.ts);
 * links that exist get 30 days from when they were made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table freeze_links add column expires_at timestamptz`.execute(db);
  await sql`update freeze_links set expires_at = created_at + interval '30 days'`.execute(db);
  await sql`alter table freeze_links alter column expires_at set not null,
    add constraint freeze_links_expiry_check check (expires_at > created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table freeze_links drop constraint freeze_links_expiry_check, drop column expires_at`.execute(db);
}
