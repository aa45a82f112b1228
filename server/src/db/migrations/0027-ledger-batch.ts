import { type Kysely, sql } from 'kysely';

/**
 * Batched posting (issue 14, modules/ledger/batcher.ts): `ledger_post_batch` applies many transfers
 * in ONE statement (one round trip, one commit when called on its own):
 *
 * 1. every account of the batch is locked once, FOR UPDATE in ascending id order (the order every
 *    posting uses, so batches and single postings wait for each other and never deadlock);
 * 2. the transfers are applied in the given order, each by `ledger_post` (migration 0011) in its own
 *    subtransaction: a transfer refused for funds (LG001) or for a reused key (LG002) is rolled back
 *    alone and reported on its row, and never fails its neighbours; later transfers see the balances
 *    the earlier ones left.
 *
 * Rows: ord (1-based position), transfer_id, created, status ('ok' | 'insufficient' | 'key_reused'),
 * detail (the account id of an insufficient balance). At most 1000 transfers and 8 legs each.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ledger_post_batch(
      p_keys text[],
      p_kinds text[],
      p_created_at timestamptz,
      p_metadata jsonb[],
      p_leg_counts integer[],
      p_account_ids bigint[],
      p_amounts numeric[]
    ) returns table (ord integer, transfer_id bigint, created boolean, status text, detail text)
    language plpgsql volatile
    set plan_cache_mode = force_generic_plan
    as $$
    declare
      v_n integer := coalesce(cardinality(p_keys), 0);
      v_from integer := 1;
      v_legs integer;
      v_posted record;
      v_detail text;
    begin
      if v_n not between 1 and 1000 or coalesce(cardinality(p_kinds), -1) <> v_n
         or coalesce(cardinality(p_metadata), -1) <> v_n or coalesce(cardinality(p_leg_counts), -1) <> v_n
         or coalesce(cardinality(p_account_ids), -1) <> coalesce(cardinality(p_amounts), -2)
         or (select sum(c) from unnest(p_leg_counts) c) <> cardinality(p_account_ids) then
        raise exception 'ledger_post_batch: 1..1000 transfers, each with its key, kind, metadata and legs'
          using errcode = 'LG003';
      end if;
      perform from ledger_accounts a where a.id = any(p_account_ids) order by a.id for update;
      for i in 1..v_n loop
        v_legs := p_leg_counts[i];
        ord := i;
        begin
          select * into v_posted from ledger_post(
            p_keys[i], p_kinds[i], p_created_at, p_metadata[i],
            p_account_ids[v_from : v_from + v_legs - 1], p_amounts[v_from : v_from + v_legs - 1]);
          transfer_id := v_posted.transfer_id;
          created := v_posted.created;
          status := 'ok';
          detail := null;
        exception
          when sqlstate 'LG001' then
            get stacked diagnostics v_detail = pg_exception_detail;
            transfer_id := null; created := false; status := 'insufficient'; detail := v_detail;
          when sqlstate 'LG002' then
            transfer_id := null; created := false; status := 'key_reused'; detail := null;
        end;
        v_from := v_from + v_legs;
        return next;
      end loop;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists ledger_post_batch(text[], text[], timestamptz, jsonb[], integer[], bigint[], numeric[])`.execute(
    db,
  );
}
