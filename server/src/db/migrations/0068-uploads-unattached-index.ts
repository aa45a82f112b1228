import { type Kysely, sql } from 'kysely';

/** Retention finds uploads never attached to a message (purged a day later, issue 38) by this index. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index uploads_unattached_idx on uploads (created_at) where attached_to is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index uploads_unattached_idx`.execute(db);
}
