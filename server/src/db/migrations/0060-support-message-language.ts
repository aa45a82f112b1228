import { type Kysely, sql } from 'kysely';

/**
 * The language a left message was written in (the page's), so the operator's answer is mailed in it: a
 * visitor has no account setting to read. Null for messages left before this column existed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table support_messages
    add column language text check (language in ('zh-CN', 'zh-TW', 'en', 'es'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table support_messages drop column language`.execute(db);
}
