import { type Kysely, sql } from 'kysely';

/**
 * `ledger_post_batch_in_order`: the transfer-by-transfer path of batched posting (migration 0030's
 * `ledger_post_batch` sends a batch here unless it can write it set-wise). Same results and
 * guarantees as 0027's function, plus linked groups, and linear in the batch's size:
 *
 * - Linked groups (TigerBeetle's linked events): `p_groups[i]` names transfer i's group; a group's
 *   transfers are consecutive. The new transfers of a group are accepted together or refused
 *   together: they are applied to the running balances in order, and if any leg takes a
 *   non-external account below zero, all of them are taken back and refused ('insufficient', the
 *   first short account). A conversion is such a group: the coin in and the coin out.
 * - 0027 spent its time on quadratic bookkeeping (measured in bench:ledger): `arr := arr || x`
 *   copies the array each time, `array_position` scanned every locked account for every leg, every
 *   key was compared with every accepted key, each transfer copied the whole balance array. Here each
 *   leg's account position comes from one hash join up front, a key is looked up once (taken before
 *   the batch? repeated in it?), only keys occurring twice are compared with the accepted ones, and
 *   arrays grow by subscript assignment (in place).
 *
 * Repeats (a key posted before, or accepted earlier in the batch) still go to `ledger_post`, one by
 * one: the same transfer is answered with the earlier one, other contents are refused alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ledger_post_batch_in_order(
      p_keys text[], p_kinds text[], p_created_at timestamptz, p_metadata jsonb[],
      p_leg_counts integer[], p_account_ids bigint[], p_amounts numeric[], p_groups integer[]
    ) returns table (ord integer, transfer_id bigint, created boolean, status text, detail text)
    language plpgsql volatile
    set plan_cache_mode = force_generic_plan
    as $$
    declare
      v_n integer := coalesce(cardinality(p_keys), 0);
      v_first_leg integer[];
      v_ids bigint[]; v_bal numeric[]; v_ext boolean[]; v_asset text[];
      v_pos integer[];      -- per leg: its account's position in v_ids
      v_taken boolean[];    -- per transfer: its key was posted before this batch
      v_multi boolean[];    -- per transfer: its key occurs more than once in this batch
      v_seen text[] := '{}';
      v_new boolean[] := '{}';
      v_status text[] := '{}'; v_detail text[] := '{}'; v_tid bigint[] := '{}'; v_created boolean[] := '{}';
      v_first_asset text; v_p integer; v_short bigint; v_posted record;
      i integer; g_end integer; k integer; u integer;
      -- a group's legs applied tentatively (p: account position, amount, after, leg index)
      t_p integer[] := '{}'; t_amount numeric[] := '{}'; t_after numeric[] := '{}'; t_leg integer[] := '{}';
      -- the accepted transfers (a_) and their entries (e_), appended by subscript
      na integer := 0; a_ord integer[] := '{}'; a_key text[] := '{}'; a_kind text[] := '{}'; a_meta jsonb[] := '{}';
      ne integer := 0; e_ord integer[] := '{}'; e_tid bigint[] := '{}'; e_account bigint[] := '{}';
      e_amount numeric[] := '{}'; e_after numeric[] := '{}';
      v_ins_ids bigint[];
    begin
      -- The caller (ledger_post_batch) has checked the shapes; what this path relies on is checked again.
      if v_n not between 1 and 1000 or coalesce(cardinality(p_groups), -1) <> v_n then
        raise exception 'ledger_post_batch_in_order: 1..1000 transfers, one group each' using errcode = 'LG003';
      end if;
      select array_agg(s.first order by s.ord) into v_first_leg
      from (select x.ord, sum(x.c) over (order by x.ord) - x.c + 1 as first
            from unnest(p_leg_counts) with ordinality x(c, ord)) s;
      with locked as (
        select a.id, a.balance, a.kind, a.asset from ledger_accounts a where a.id = any(p_account_ids) order by a.id for update
      )
      select array_agg(l.id order by l.id), array_agg(l.balance order by l.id),
             array_agg(l.kind = 'system_external' order by l.id), array_agg(l.asset order by l.id)
      into v_ids, v_bal, v_ext, v_asset from locked l;
      select array_agg(x.pos order by u.n) into v_pos
      from unnest(p_account_ids) with ordinality u(id, n)
      left join unnest(v_ids) with ordinality x(id, pos) on x.id = u.id;
      select array_agg(exists (select 1 from ledger_transfers t where t.idempotency_key = k.key) order by k.n),
             array_agg(k.occurs > 1 order by k.n)
      into v_taken, v_multi
      from (select u.key, u.n, count(*) over (partition by u.key) as occurs
            from unnest(p_keys) with ordinality u(key, n)) k;

      -- Decide group by group, in order, against running balances.
      i := 1;
      while i <= v_n loop
        g_end := i;
        while g_end < v_n and p_groups[g_end + 1] = p_groups[i] loop g_end := g_end + 1; end loop;
        v_short := null; u := 0;
        for t in i..g_end loop
          v_status[t] := 'repeat'; v_detail[t] := null; v_tid[t] := null; v_created[t] := false;
          v_new[t] := not (v_taken[t] or (v_multi[t] and p_keys[t] = any(v_seen)));
          if v_new[t] and v_multi[t] and t > i and p_keys[t] = any(p_keys[i:t - 1]) then
            raise exception 'ledger_post_batch: a key twice in one linked group' using errcode = 'LG003';
          end if;
          if v_new[t] then
            v_first_asset := null;
            for j in v_first_leg[t] .. v_first_leg[t] + p_leg_counts[t] - 1 loop
              v_p := v_pos[j];
              if v_p is null or p_amounts[j] = 0 or v_asset[v_p] <> coalesce(v_first_asset, v_asset[v_p]) then
                raise exception 'ledger_post_batch: legs name existing accounts of one asset, non-zero amounts'
                  using errcode = 'LG003';
              end if;
              v_first_asset := v_asset[v_p];
              v_bal[v_p] := v_bal[v_p] + p_amounts[j];
              u := u + 1; t_p[u] := v_p; t_amount[u] := p_amounts[j]; t_after[u] := v_bal[v_p]; t_leg[u] := j;
              if v_short is null and not v_ext[v_p] and v_bal[v_p] < 0 then v_short := p_account_ids[j]; end if;
            end loop;
          end if;
        end loop;
        if v_short is not null then
          -- Refused together: take the group's legs back.
          for q in 1..u loop v_bal[t_p[q]] := v_bal[t_p[q]] - t_amount[q]; end loop;
          for t in i..g_end loop
            if v_new[t] then v_status[t] := 'insufficient'; v_detail[t] := v_short::text; end if;
          end loop;
        else
          k := 1;
          for t in i..g_end loop
            if v_new[t] then
              v_status[t] := 'ok'; v_created[t] := true;
              if v_multi[t] then v_seen := v_seen || p_keys[t]; end if;
              na := na + 1;
              a_ord[na] := t; a_key[na] := p_keys[t]; a_kind[na] := p_kinds[t];
              a_meta[na] := coalesce(p_metadata[t], '{}'::jsonb);
              while k <= u and t_leg[k] < v_first_leg[t] + p_leg_counts[t] loop
                ne := ne + 1;
                e_ord[ne] := na; e_account[ne] := v_ids[t_p[k]]; e_amount[ne] := t_amount[k]; e_after[ne] := t_after[k];
                k := k + 1;
              end loop;
            end if;
          end loop;
        end if;
        i := g_end + 1;
      end loop;

      if na > 0 then
        -- The accepted transfers in one statement (ids ascend in batch order), ids from its RETURNING.
        -- A key a concurrent transaction took meanwhile leaves a row out: the batch fails whole.
        with ins as (
          insert into ledger_transfers (idempotency_key, kind, created_at, metadata)
          select u.key, u.kind, p_created_at, u.meta
          from unnest(a_key, a_kind, a_meta) with ordinality u(key, kind, meta, n) order by u.n
          on conflict (idempotency_key) do nothing
          returning id, idempotency_key
        )
        select array_agg(ins.id order by a.n) into v_ins_ids
        from ins join unnest(a_key) with ordinality a(key, n) on a.key = ins.idempotency_key;
        if coalesce(cardinality(v_ins_ids), 0) <> na then
          raise exception 'ledger_post_batch: a key was posted concurrently' using errcode = '40001';
        end if;
        for q in 1..na loop v_tid[a_ord[q]] := v_ins_ids[q]; end loop;
        for q in 1..ne loop e_tid[q] := v_ins_ids[e_ord[q]]; end loop;
        -- Balances (one UPDATE) and the journal (one INSERT, in batch and leg order: the before/after
        -- chains follow the entry ids).
        update ledger_accounts a set balance = b.balance
        from unnest(v_ids, v_bal) b(id, balance) where a.id = b.id and a.balance <> b.balance;
        insert into ledger_entries (transfer_id, account_id, amount, balance_before, balance_after, created_at)
        select e.tid, e.account, e.amount, e.after - e.amount, e.after, p_created_at
        from unnest(e_tid, e_account, e_amount, e_after) with ordinality e(tid, account, amount, after, n)
        order by e.n;
      end if;

      -- Repeats: ledger_post answers with the earlier transfer, or refuses other contents alone.
      for t in 1..v_n loop
        if v_status[t] = 'repeat' then
          begin
            select * into v_posted from ledger_post(
              p_keys[t], p_kinds[t], p_created_at, p_metadata[t],
              p_account_ids[v_first_leg[t] : v_first_leg[t] + p_leg_counts[t] - 1],
              p_amounts[v_first_leg[t] : v_first_leg[t] + p_leg_counts[t] - 1]);
            v_tid[t] := v_posted.transfer_id; v_created[t] := v_posted.created; v_status[t] := 'ok';
          exception when sqlstate 'LG002' then
            v_status[t] := 'key_reused';
          end;
        end if;
      end loop;
      return query select u.n::integer, v_tid[u.n], v_created[u.n], v_status[u.n], v_detail[u.n]
        from generate_series(1, v_n) u(n);
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function ledger_post_batch_in_order(text[], text[], timestamptz, jsonb[], integer[], bigint[], numeric[], integer[])`.execute(
    db,
  );
}
