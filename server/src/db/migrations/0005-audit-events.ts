import { type Kysely, sql } from 'kysely';

// Append-only security audit log: a trigger refuses UPDATE, DELETE and TRUNCATE.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('user_id', 'uuid')
    .addColumn('ip', 'text')
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  await db.schema.createIndex('audit_events_user_idx').on('audit_events').columns(['user_id', 'occurred_at']).execute();
  await sql`
    create function audit_events_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_events is append-only (% refused)', tg_op using errcode = 'insufficient_privilege';
    end
    $$`.execute(db);
  await sql`
    create trigger audit_events_no_update_delete before update or delete on audit_events
    for each row execute function audit_events_append_only()`.execute(db);
  await sql`
    create trigger audit_events_no_truncate before truncate on audit_events
    for each statement execute function audit_events_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_events').execute();
  await sql`drop function if exists audit_events_append_only()`.execute(db);
}
