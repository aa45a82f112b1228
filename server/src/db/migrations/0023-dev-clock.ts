import { type Kysely, sql } from 'kysely';

/**
 * The development clock's offset (DEV_CLOCK, never in production): QA moves the server's time
 * forward to test what happens tomorrow (claims 24 hours after a check-in, a lottery seed revealed
 * after its day). In the database, so every API instance reads the same time.
 * Migrations must not import app code: they describe the schema as it was at the time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table dev_clock (
    id integer primary key check (id = 1),
    offset_ms bigint not null check (offset_ms >= 0)
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table dev_clock`.execute(db);
}
