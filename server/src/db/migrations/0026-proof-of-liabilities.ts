import { type Kysely, sql } from 'kysely';

/**
 * Proof of liabilities (issue 14, modules/por): each published snapshot of user balances as a Merkle
 * sum tree. `por_snapshots` keeps every root (hash and per-asset totals, in `assets` order);
 * `por_leaves` the leaves in tree order (user, random salt, balances), so a user's inclusion proof
 * can be rebuilt later. Both are append-only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table por_snapshots (
    id uuid primary key default gen_random_uuid(),
    created_at timestamptz not null,
    assets text[] not null,
    root_hash text not null check (root_hash ~ '^[0-9a-f]{64}$'),
    root_sums numeric(78, 0)[] not null,
    leaf_count integer not null check (leaf_count >= 0),
    check (cardinality(root_sums) = cardinality(assets))
  )`.execute(db);
  await sql`create index por_snapshots_created_idx on por_snapshots (created_at desc)`.execute(db);
  await sql`create table por_leaves (
    snapshot_id uuid not null references por_snapshots (id),
    position integer not null check (position >= 0),
    user_id uuid not null references users (id),
    salt text not null check (salt ~ '^[0-9a-f]{64}$'),
    balances numeric(78, 0)[] not null,
    primary key (snapshot_id, position),
    unique (snapshot_id, user_id)
  )`.execute(db);
  await sql`
    create function por_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception '% is append-only', tg_table_name using errcode = 'insufficient_privilege';
    end
    $$`.execute(db);
  for (const table of ['por_snapshots', 'por_leaves']) {
    await sql`create trigger ${sql.raw(`${table}_append_only`)} before update or delete on ${sql.table(table)}
      for each row execute function por_refuse_change()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table por_leaves`.execute(db);
  await sql`drop table por_snapshots`.execute(db);
  await sql`drop function if exists por_refuse_change()`.execute(db);
}
