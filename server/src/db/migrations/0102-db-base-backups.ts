import { type Kysely, sql } from 'kysely';

/**
 * db_base_backups: one row per base backup attempt (backup/schedule.ts). The daily schedule reads the
 * newest finished row, so "is a backup due" is a fact in PostgreSQL shared by every API instance, not a
 * timer in one process; at most one attempt runs at a time (the partial unique index), and one that
 * died mid-copy is marked failed once its lease is past.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table db_base_backups (
    id bigserial primary key,
    state text not null check (state in ('running', 'done', 'failed')),
    started_at timestamptz not null,
    lease_until timestamptz not null,
    finished_at timestamptz,
    backup_id text,
    start_wal text,
    error text check (char_length(error) <= 2000),
    check ((state = 'done') = (backup_id is not null and finished_at is not null))
  )`.execute(db);
  await sql`create unique index db_base_backups_one_running on db_base_backups ((true)) where state = 'running'`.execute(
    db,
  );
  await sql`create index db_base_backups_done on db_base_backups (finished_at desc) where state = 'done'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table db_base_backups`.execute(db);
}
