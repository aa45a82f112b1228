import { type Kysely, sql } from 'kysely';

/**
 * Batched posting (issue 14, modules/ledger/batcher.ts): `ledger_post_batch` applies many transfers
 * in ONE statement (one round trip, one commit when called on its own):
 *
 * 1. every account of the batch is locked once, FOR UPDATE in ascending id order (the order every
 *    posting uses, so batches and single postings wait for each other and never deadlock);
 * 2. the transfers are decided in order, in memory, against the balances the earlier ones left: one
 *    that would take a non-external account below zero is refused alone ('insufficient');
 * 3. the accepted ones are written set-wise: one INSERT of transfers, one UPDATE of the balances, one
 *    INSERT of the entries (before/after from the running balances, ids in batch order), so a batch
 *    costs a few statements instead of a few per transfer; the CHECK, foreign keys and the deferred
 *    zero-sum trigger of migration 0006 stay the backstop;
 * 4. a key posted before (or earlier in the batch) goes to `ledger_post` in a subtransaction: the
 *    repeat is answered with the earlier transfer, other contents refused alone ('key_reused'). A key
 *    first taken by a concurrent transaction during the batch fails the batch whole (SQLSTATE 40001,
 *    nothing committed; the batcher's callers retry with their keys).
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
      v_from integer;
      v_legs integer;
      v_posted record;
      v_ids bigint[];
      v_bal numeric[];
      v_ext boolean[];
      v_asset text[];
      v_first_asset text;
      v_taken text[];
      v_seen text[] := '{}';
      v_next numeric[];
      v_pos integer;
      v_short bigint;
      v_status text[] := '{}';
      v_detail text[] := '{}';
      v_tid bigint[] := '{}';
      v_created boolean[] := '{}';
      -- accepted new transfers, and their entries (before/after from the running balances)
      a_ord integer[] := '{}';
      e_ord integer[] := '{}';
      e_account bigint[] := '{}';
      e_amount numeric[] := '{}';
      e_after numeric[] := '{}';
      v_inserted integer;
      v_map record;
    begin
      if v_n not between 1 and 1000 or coalesce(cardinality(p_kinds), -1) <> v_n
         or coalesce(cardinality(p_metadata), -1) <> v_n or coalesce(cardinality(p_leg_counts), -1) <> v_n
         or coalesce(cardinality(p_account_ids), -1) <> coalesce(cardinality(p_amounts), -2)
         or (select sum(c) from unnest(p_leg_counts) c) <> cardinality(p_account_ids) then
        raise exception 'ledger_post_batch: 1..1000 transfers, each with its key, kind, metadata and legs'
          using errcode = 'LG003';
      end if;
      -- 1. Every account once, in id order; the balances as the lock leaves them.
      with locked as (
        select a.id, a.balance, a.kind, a.asset from ledger_accounts a where a.id = any(p_account_ids) order by a.id for update
      )
      select array_agg(l.id order by l.id), array_agg(l.balance order by l.id),
             array_agg(l.kind = 'system_external' order by l.id), array_agg(l.asset order by l.id)
      into v_ids, v_bal, v_ext, v_asset from locked l;
      select coalesce(array_agg(t.idempotency_key), '{}') into v_taken
      from ledger_transfers t where t.idempotency_key = any(p_keys);

      -- 2. Decide each transfer in order, in memory: a repeat key is left to ledger_post (step 5); a new
      --    one is refused when it would take a non-external account below zero, else accepted.
      v_from := 1;
      for i in 1..v_n loop
        v_legs := p_leg_counts[i];
        v_status[i] := 'repeat'; v_detail[i] := null; v_tid[i] := null; v_created[i] := false;
        if v_legs not between 2 and 8 then
          raise exception 'ledger_post_batch: 2..8 legs a transfer' using errcode = 'LG003';
        end if;
        if not (p_keys[i] = any(v_taken) or p_keys[i] = any(v_seen)) then
          v_next := v_bal;
          v_short := null;
          v_first_asset := null;
          for j in v_from .. v_from + v_legs - 1 loop
            v_pos := array_position(v_ids, p_account_ids[j]);
            if v_pos is null or p_amounts[j] = 0 or v_asset[v_pos] <> coalesce(v_first_asset, v_asset[v_pos]) then
              raise exception 'ledger_post_batch: legs name existing accounts of one asset, non-zero amounts'
                using errcode = 'LG003';
            end if;
            v_first_asset := v_asset[v_pos];
            v_next[v_pos] := v_next[v_pos] + p_amounts[j];
            if not v_ext[v_pos] and v_next[v_pos] < 0 then v_short := p_account_ids[j]; end if;
          end loop;
          if v_short is not null then
            v_status[i] := 'insufficient'; v_detail[i] := v_short::text;
          else
            v_status[i] := 'ok'; v_created[i] := true;
            v_seen := v_seen || p_keys[i];
            a_ord := a_ord || i;
            for j in v_from .. v_from + v_legs - 1 loop
              v_pos := array_position(v_ids, p_account_ids[j]);
              v_bal[v_pos] := v_bal[v_pos] + p_amounts[j];
              e_ord := e_ord || i; e_account := e_account || p_account_ids[j];
              e_amount := e_amount || p_amounts[j]; e_after := e_after || v_bal[v_pos];
            end loop;
          end if;
        end if;
        v_from := v_from + v_legs;
      end loop;

      if cardinality(a_ord) > 0 then
        -- 3. The accepted transfers in one statement (ids ascend in batch order). A key a concurrent
        --    transaction took meanwhile leaves a row out: the batch fails whole (nothing commits).
        insert into ledger_transfers (idempotency_key, kind, created_at, metadata)
        select p_keys[o], p_kinds[o], p_created_at, coalesce(p_metadata[o], '{}'::jsonb)
        from unnest(a_ord) with ordinality u(o, n) order by u.n
        on conflict (idempotency_key) do nothing;
        get diagnostics v_inserted = row_count;
        if v_inserted <> cardinality(a_ord) then
          raise exception 'ledger_post_batch: a key was posted concurrently' using errcode = '40001';
        end if;
        for v_map in select t.id, u.o from unnest(a_ord) u(o)
                     join ledger_transfers t on t.idempotency_key = p_keys[u.o] loop
          v_tid[v_map.o] := v_map.id;
        end loop;
        -- 4. Balances (one UPDATE) and the journal (one INSERT, in batch and leg order: the before/after
        --    chains follow the entry ids).
        update ledger_accounts a set balance = b.balance
        from unnest(v_ids, v_bal) b(id, balance) where a.id = b.id and a.balance <> b.balance;
        insert into ledger_entries (transfer_id, account_id, amount, balance_before, balance_after, created_at)
        select v_tid[e.o], e.account, e.amount, e.after - e.amount, e.after, p_created_at
        from unnest(e_ord, e_account, e_amount, e_after) with ordinality e(o, account, amount, after, n)
        order by e.n;
      end if;

      -- 5. Repeats: ledger_post answers with the earlier transfer, or refuses other contents alone.
      v_from := 1;
      for i in 1..v_n loop
        v_legs := p_leg_counts[i];
        if v_status[i] = 'repeat' then
          begin
            select * into v_posted from ledger_post(
              p_keys[i], p_kinds[i], p_created_at, p_metadata[i],
              p_account_ids[v_from : v_from + v_legs - 1], p_amounts[v_from : v_from + v_legs - 1]);
            v_tid[i] := v_posted.transfer_id; v_created[i] := v_posted.created; v_status[i] := 'ok';
          exception when sqlstate 'LG002' then
            v_status[i] := 'key_reused';
          end;
        end if;
        v_from := v_from + v_legs;
      end loop;
      return query select u.n::integer, v_tid[u.n], v_created[u.n], v_status[u.n], v_detail[u.n]
        from generate_series(1, v_n) u(n);
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists ledger_post_batch(text[], text[], timestamptz, jsonb[], integer[], bigint[], numeric[])`.execute(
    db,
  );
}
