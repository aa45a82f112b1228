import { type Kysely, sql } from 'kysely';

/**
 * Audit chain anchors (review 32a, finding 1), and the verify checkpoint (finding 10): each periodic export of the log to S3-compatible storage
 * is recorded here, so the schedule lives in the database (any instance runs the next one when it is
 * due) and each export holds only the rows after the previous one. The anchor itself is the object in
 * the bucket (written once, never overwritten); a row here is only the bookkeeping.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table audit_anchors (
    to_seq bigint primary key check (to_seq >= 0),
    from_seq bigint not null check (from_seq >= 0 and from_seq <= to_seq),
    head_hash bytea not null check (length(head_hash) = 32),
    object_key text not null unique check (length(object_key) <= 300),
    exported_at timestamptz not null
  )`.execute(db);
  await sql`create index audit_anchors_exported_idx on audit_anchors (exported_at)`.execute(db);
  // The newest link a full or incremental verify found sound (review 32a, finding 10): the console's
  // chain state walks only the rows after it, and checks that link's hash is unchanged.
  await sql`create table audit_verify_checkpoint (
    id smallint primary key check (id = 1),
    seq bigint not null check (seq >= 0),
    hash bytea not null check (length(hash) = 32),
    verified_at timestamptz not null
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table audit_verify_checkpoint`.execute(db);
  await sql`drop table audit_anchors`.execute(db);
}
