import { type Kysely, sql } from 'kysely';

/**
 * db_archive_shipping (issue 34): the S3 archive shipper's last run, one row. The shipper runs in the
 * process that holds the embedded primary (backup/s3-archive-schedule.ts), but the operator dashboard
 * is answered by any API instance: the lag is a fact in PostgreSQL, not a gauge in one process's memory.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table db_archive_shipping (
    id smallint primary key default 1 check (id = 1),
    lag_segments integer not null check (lag_segments >= 0),
    last_success_at timestamptz,
    failed_runs integer not null default 0 check (failed_runs >= 0),
    last_error text check (char_length(last_error) <= 500),
    updated_at timestamptz not null
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table db_archive_shipping`.execute(db);
}
