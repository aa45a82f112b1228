import { type Kysely, sql } from 'kysely';

/**
 * Retention (modules/retention): rows that only mattered for a while are deleted in the background.
 * A quote's `replaced_by` link may then point at a quote that is gone: the link is cleared instead of
 * blocking the delete. Indexes let the sweeper find old rows without reading whole tables.
 * Migrations must not import app code: they describe the schema as it was at the time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table convert_quotes
    drop constraint convert_quotes_replaced_by_fkey,
    add constraint convert_quotes_replaced_by_fkey foreign key (replaced_by)
      references convert_quotes (id) on delete set null`.execute(db);
  await sql`create index convert_quotes_expires_at_idx on convert_quotes (expires_at)`.execute(db);
  await sql`create index exchange_rate_locks_expires_at_idx on exchange_rate_locks (expires_at)`.execute(db);
  await sql`create index verification_codes_expires_at_idx on verification_codes (expires_at)`.execute(db);
  await sql`create index sessions_expires_at_idx on sessions (expires_at)`.execute(db);
  await sql`create index throttles_last_failure_at_idx on throttles (last_failure_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index throttles_last_failure_at_idx`.execute(db);
  await sql`drop index sessions_expires_at_idx`.execute(db);
  await sql`drop index verification_codes_expires_at_idx`.execute(db);
  await sql`drop index exchange_rate_locks_expires_at_idx`.execute(db);
  await sql`drop index convert_quotes_expires_at_idx`.execute(db);
  await sql`alter table convert_quotes
    drop constraint convert_quotes_replaced_by_fkey,
    add constraint convert_quotes_replaced_by_fkey foreign key (replaced_by) references convert_quotes (id)`.execute(
    db,
  );
}
