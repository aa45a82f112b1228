import { type Kysely, sql } from 'kysely';

/**
 * Tamper-evident audit log (issue 32, ASVS 16.4.2). `audit_events` was append-only already (0005: a
 * trigger refuses UPDATE, DELETE and TRUNCATE; retention never deletes from it). Now every row is also
 * a link of one hash chain:
 *
 *   hash = SHA-256(prev_hash ‖ audit_event_content(row)),  prev_hash = the hash of chain_seq - 1
 *
 * where the content is the row as a JSON array (jsonb's text form is canonical: key order and spacing
 * are fixed). A deferred constraint trigger links each row at its transaction's commit, holding the
 * single `audit_chain_head` row FOR UPDATE, so concurrent transactions extend one chain in the order they
 * commit (chain_seq, not id: ids come from a sequence and may interleave). A rolled-back insert never
 * links. Every committed row is linked; a row without a link was slipped in with the triggers off.
 * Editing or deleting a row (a superuser with the trigger off) breaks the link at that row or the
 * next; deleting the newest rows leaves the head ahead of the last row. `npm run ops -- audit verify`
 * walks it. Existing rows are chained here in id order, starting from 32 zero bytes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table audit_events
    add column chain_seq bigint unique,
    add column prev_hash bytea,
    add column hash bytea`.execute(db);
  await sql`create table audit_chain_head (
    id smallint primary key check (id = 1),
    seq bigint not null,
    hash bytea not null check (length(hash) = 32)
  )`.execute(db);
  await sql`create function audit_event_content(e audit_events) returns bytea language sql stable as $$
    select convert_to(jsonb_build_array(
      e.chain_seq, e.id,
      to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
      e.event, e.user_id, e.ip, e.details
    )::text, 'UTF8')
  $$`.execute(db);
  await sql`alter table audit_events disable trigger audit_events_no_update_delete`.execute(db);
  await sql`do $$
    declare
      r record;
      h bytea := '\\x0000000000000000000000000000000000000000000000000000000000000000';
      s bigint := 0;
    begin
      for r in select id from audit_events order by id loop
        s := s + 1;
        update audit_events set chain_seq = s, prev_hash = h where id = r.id;
        update audit_events e set hash = sha256(h || audit_event_content(e)) where e.id = r.id returning e.hash into h;
      end loop;
      insert into audit_chain_head (id, seq, hash) values (1, s, h);
    end
  $$`.execute(db);
  await sql`alter table audit_events enable trigger audit_events_no_update_delete`.execute(db);
  // The chain columns are the chain's alone: an insert cannot preset them.
  await sql`create function audit_events_unchained() returns trigger language plpgsql as $$
    begin
      new.chain_seq := null;
      new.prev_hash := null;
      new.hash := null;
      return new;
    end
  $$`.execute(db);
  await sql`create trigger audit_events_unchained before insert on audit_events
    for each row execute function audit_events_unchained()`.execute(db);
  // Linked at commit (a deferred constraint trigger): the head row is locked only for the last moment
  // of the transaction, after every other lock it takes, so audited transactions queue briefly on it
  // and cannot deadlock through it.
  await sql`create function audit_events_chain() returns trigger language plpgsql as $$
    declare
      head audit_chain_head;
      linked audit_events;
    begin
      select * into head from audit_chain_head where id = 1 for update;
      linked := new;
      linked.chain_seq := head.seq + 1;
      linked.prev_hash := head.hash;
      linked.hash := sha256(head.hash || audit_event_content(linked));
      update audit_events set chain_seq = linked.chain_seq, prev_hash = linked.prev_hash, hash = linked.hash
        where id = new.id;
      update audit_chain_head set seq = linked.chain_seq, hash = linked.hash where id = 1;
      return null;
    end
  $$`.execute(db);
  await sql`create constraint trigger audit_events_chain after insert on audit_events
    deferrable initially deferred for each row execute function audit_events_chain()`.execute(db);
  // Append-only still, except the one update that links a row not yet linked, changing nothing else.
  await sql`create or replace function audit_events_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and old.chain_seq is null and new.chain_seq is not null
        and (new.id, new.occurred_at, new.event, new.user_id, new.ip, new.details)
          is not distinct from (old.id, old.occurred_at, old.event, old.user_id, old.ip, old.details) then
        return new;
      end if;
      raise exception 'audit_events is append-only (% refused)', tg_op using errcode = 'insufficient_privilege';
    end
  $$`.execute(db);
  await sql`create index audit_events_occurred_idx on audit_events (occurred_at)`.execute(db);
  await sql`create index audit_events_unlinked_idx on audit_events (id) where chain_seq is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger audit_events_chain on audit_events`.execute(db);
  await sql`drop function audit_events_chain()`.execute(db);
  await sql`drop trigger audit_events_unchained on audit_events`.execute(db);
  await sql`drop function audit_events_unchained()`.execute(db);
  await sql`create or replace function audit_events_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_events is append-only (% refused)', tg_op using errcode = 'insufficient_privilege';
    end
  $$`.execute(db);
  await sql`drop index audit_events_occurred_idx`.execute(db);
  await sql`drop index audit_events_unlinked_idx`.execute(db);
  await sql`drop function audit_event_content(audit_events)`.execute(db);
  await sql`alter table audit_events drop column chain_seq, drop column prev_hash, drop column hash`.execute(db);
  await sql`drop table audit_chain_head`.execute(db);
}
