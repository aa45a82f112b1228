import { type Kysely, sql } from 'kysely';

/**
 * Payout methods meet the withdrawal allowlist (review of issue 31, F1): a sell pays the provider,
 * which pays the chosen method, so a method is a destination like an address. usable_at is when a
 * method added (or switched back on) may receive a sell while the allowlist is on: the allowlist's
 * hold from that moment, stored when it starts so a later change of the setting moves no promise.
 * Methods that exist already get the default 24 h from when they were added.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table payment_methods add column usable_at timestamptz`.execute(db);
  await sql`update payment_methods set usable_at = created_at + interval '24 hours'`.execute(db);
  await sql`alter table payment_methods alter column usable_at set not null,
    add constraint payment_methods_usable_check check (usable_at >= created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table payment_methods drop constraint payment_methods_usable_check, drop column usable_at`.execute(
    db,
  );
}
