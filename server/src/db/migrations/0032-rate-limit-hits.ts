import { type Kysely, sql } from 'kysely';

/**
 * The global rate limit's counters (issue 15: any API instance may serve a client, so the counters
 * cannot live in one process's memory). UNLOGGED: a counter is soft state — a crash empties the table
 * (every client starts a fresh window), and in exchange an increment writes no WAL. One row per key
 * (client IP): hits in the current fixed window, which started at `window_start_ms` (database clock, so
 * instances with skewed clocks agree).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create unlogged table rate_limit_hits (
      key text primary key check (length(key) between 1 and 200),
      window_start_ms bigint not null,
      hits integer not null check (hits >= 0)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table rate_limit_hits`.execute(db);
}
