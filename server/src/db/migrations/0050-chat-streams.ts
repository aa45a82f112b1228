import { type Kysely, sql } from 'kysely';

/**
 * The chat's open event streams (modules/chat/stream-slots.ts), one row each, so every API instance
 * counts them alike: a session or a user holds only a few at once (each writes presence and costs a
 * catch-up query per message). A row is renewed on its stream's heartbeats and deleted at close; one
 * left by a process that died stops counting once it misses its heartbeats. `holder` is the user
 * (`user:<uuid>`) or operator (`operator:<uuid>`), `session` the session that opened it.
 * Migrations must not import app code: they describe the schema as it was at the time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table chat_streams (
    id uuid primary key default gen_random_uuid(),
    holder text not null,
    session text not null,
    opened_at timestamptz not null,
    seen_at timestamptz not null
  )`.execute(db);
  await sql`create index chat_streams_holder_idx on chat_streams (holder, seen_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table chat_streams`.execute(db);
}
