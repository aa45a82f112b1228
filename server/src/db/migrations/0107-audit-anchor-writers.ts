import { type Kysely, sql } from 'kysely';

/**
 * Review s7, finding 3: the app role had full DML on audit_anchors and audit_verify_checkpoint (0092's
 * default privileges). One forged anchor row (exported_at in the future, to_seq past the head) stopped
 * every later export to the bucket, silently; a forged checkpoint made the console's chain state lie.
 * Now the app role only reads them, and records through two functions owned by the owner
 * (SECURITY DEFINER, search_path pinned) that check what is written against the chain:
 * - audit_record_anchor: from_seq is the previous anchor's to_seq (0 for the first), to_seq is a link
 *   of the chain at or below its head, head_hash is that link's hash, the key is an audit/ object;
 *   exported_at is the database's now(), never the caller's.
 * - audit_record_checkpoint: seq is a link at or below the head with that hash; it only moves forward.
 */
const GENESIS = sql`decode(repeat('00', 32), 'hex')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function audit_link_hash(p_seq bigint) returns bytea
    language sql stable security definer set search_path = pg_catalog, public, pg_temp as $$
      select case when p_seq = 0 then ${GENESIS}
        else (select e.hash from audit_events e where e.chain_seq = p_seq
              and p_seq <= (select h.seq from audit_chain_head h where h.id = 1)) end
    $$`.execute(db);
  await sql`create or replace function audit_record_anchor(p_from_seq bigint, p_to_seq bigint, p_head_hash bytea, p_object_key text)
    returns boolean language plpgsql security definer set search_path = pg_catalog, public, pg_temp as $$
    declare
      last_to bigint;
    begin
      -- An export racing another (the CLI's and the schedule's) recorded the same one first.
      if exists (select 1 from audit_anchors where to_seq = p_to_seq) then return false; end if;
      select coalesce(max(to_seq), 0) into last_to from audit_anchors;
      if p_from_seq is distinct from last_to or p_to_seq is null or p_to_seq < p_from_seq then
        raise exception 'audit anchor: rows #% to #% do not follow the last anchor (#%)', p_from_seq, p_to_seq, last_to
          using errcode = 'check_violation';
      end if;
      if p_head_hash is null or audit_link_hash(p_to_seq) is distinct from p_head_hash then
        raise exception 'audit anchor: #% is not a link of the chain with that hash', p_to_seq using errcode = 'check_violation';
      end if;
      if p_object_key is null or length(p_object_key) > 300 or p_object_key !~ '^audit/[0-9a-z./-]+$' then
        raise exception 'audit anchor: bad object key' using errcode = 'check_violation';
      end if;
      insert into audit_anchors (to_seq, from_seq, head_hash, object_key, exported_at)
        values (p_to_seq, p_from_seq, p_head_hash, p_object_key, now());
      return true;
    end $$`.execute(db);
  await sql`create or replace function audit_record_checkpoint(p_seq bigint, p_hash bytea)
    returns void language plpgsql security definer set search_path = pg_catalog, public, pg_temp as $$
    begin
      if p_seq is null or p_hash is null or audit_link_hash(p_seq) is distinct from p_hash then
        raise exception 'audit checkpoint: #% is not a link of the chain with that hash', p_seq using errcode = 'check_violation';
      end if;
      insert into audit_verify_checkpoint (id, seq, hash, verified_at) values (1, p_seq, p_hash, now())
        on conflict (id) do update set seq = excluded.seq, hash = excluded.hash, verified_at = excluded.verified_at
        where audit_verify_checkpoint.seq <= excluded.seq;
    end $$`.execute(db);
  for (const fn of [
    'audit_link_hash(bigint)',
    'audit_record_anchor(bigint, bigint, bytea, text)',
    'audit_record_checkpoint(bigint, bytea)',
  ])
    await sql`revoke all on function ${sql.raw(fn)} from public`.execute(db);
  const { rows } = await sql<{ found: boolean }>`
    select exists (select 1 from pg_roles where rolname = 'cw_app_role') as found`.execute(db);
  if (!rows[0]?.found) return;
  await sql`revoke insert, update, delete, truncate on audit_anchors, audit_verify_checkpoint from cw_app_role`.execute(
    db,
  );
  await sql`grant select on audit_anchors, audit_verify_checkpoint to cw_app_role`.execute(db);
  await sql`grant execute on function audit_record_anchor(bigint, bigint, bytea, text), audit_record_checkpoint(bigint, bytea)
    to cw_app_role`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function audit_record_checkpoint(bigint, bytea)`.execute(db);
  await sql`drop function audit_record_anchor(bigint, bigint, bytea, text)`.execute(db);
  await sql`drop function audit_link_hash(bigint)`.execute(db);
  const { rows } = await sql<{ found: boolean }>`
    select exists (select 1 from pg_roles where rolname = 'cw_app_role') as found`.execute(db);
  if (rows[0]?.found)
    await sql`grant insert, update, delete on audit_anchors, audit_verify_checkpoint to cw_app_role`.execute(db);
}
