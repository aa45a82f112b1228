import { type Kysely, sql } from 'kysely';

/**
 * `ledger_post_batch` again (same signature, results and guarantees as migration 0027), faster:
 *
 * A. The common batch — no key seen before or twice, and no account that the batch's withdrawals
 *    could take below zero even if all of them were applied (balance + every negative leg >= 0, so
 *    every order of the batch is safe) — is written without a per-transfer loop: a few set-wise
 *    statements (`ledger_post_batch`, below). Running balances come from a window sum per account in
 *    leg order, so the entries' before/after chains are the same as one-by-one posting gives.
 * B. Any other batch goes to `ledger_post_batch_in_order`, which decides transfer by transfer.
 *
 * Both refuse malformed input whole (LG003): a leg naming an unknown account or a zero amount, a
 * transfer with 2..8 legs not all distinct accounts of one asset.
 *
 * `ledger_post_batch_in_order` is 0027's function with its per-batch work made linear in the batch's
 * size. Measured in bench:ledger, 0027 spent its time on
 * quadratic bookkeeping, not on the database: `arr := arr || x` copies the array each time,
 * `array_position` scans every locked account for every leg, every key was compared with every
 * accepted key, and each transfer copied the whole balance array to test itself. Here:
 *
 * - each leg's position among the locked accounts comes from one hash join, up front;
 * - a key is looked up once (taken before the batch? repeated within it?), and only keys that occur
 *   more than once in the batch are compared with the accepted ones;
 * - the legs of one transfer name distinct accounts (TypeScript asserts it; the unique index on
 *   (transfer_id, account_id) is the backstop), so a leg is tested against its account's running
 *   balance directly;
 * - the arrays grow by subscript assignment (in place), and the transfer ids come back from the
 *   INSERT itself.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ledger_post_batch_in_order(
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
      v_p integer;
      v_posted record;
      v_ids bigint[];
      v_bal numeric[];
      v_ext boolean[];
      v_asset text[];
      v_first_asset text;
      v_pos integer[];      -- per leg: its account's position in v_ids
      v_taken boolean[];    -- per transfer: its key was posted before this batch
      v_multi boolean[];    -- per transfer: its key occurs more than once in this batch
      v_seen text[] := '{}';
      v_short bigint;
      v_status text[] := '{}';
      v_detail text[] := '{}';
      v_tid bigint[] := '{}';
      v_created boolean[] := '{}';
      -- the accepted transfers (a_) and their entries (e_), appended by subscript
      na integer := 0;
      a_ord integer[] := '{}';
      a_key text[] := '{}';
      a_kind text[] := '{}';
      a_meta jsonb[] := '{}';
      ne integer := 0;
      e_ord integer[] := '{}';
      e_tid bigint[] := '{}';
      e_account bigint[] := '{}';
      e_amount numeric[] := '{}';
      e_after numeric[] := '{}';
      v_ins_ids bigint[];
      v_ins_ords integer[];
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
      select array_agg(x.pos order by u.n) into v_pos
      from unnest(p_account_ids) with ordinality u(id, n)
      left join unnest(v_ids) with ordinality x(id, pos) on x.id = u.id;
      select array_agg(exists (select 1 from ledger_transfers t where t.idempotency_key = k.key) order by k.n),
             array_agg(k.occurs > 1 order by k.n)
      into v_taken, v_multi
      from (select u.key, u.n, count(*) over (partition by u.key) as occurs
            from unnest(p_keys) with ordinality u(key, n)) k;

      -- 2. Decide each transfer in order, in memory: a repeat key is left to ledger_post (step 4); a new
      --    one is refused when it would take a non-external account below zero, else accepted.
      v_from := 1;
      for i in 1..v_n loop
        v_legs := p_leg_counts[i];
        v_status[i] := 'repeat'; v_detail[i] := null; v_tid[i] := null; v_created[i] := false;
        if v_legs not between 2 and 8 then
          raise exception 'ledger_post_batch: 2..8 legs a transfer' using errcode = 'LG003';
        end if;
        if not (v_taken[i] or (v_multi[i] and p_keys[i] = any(v_seen))) then
          v_short := null;
          v_first_asset := null;
          for j in v_from .. v_from + v_legs - 1 loop
            v_p := v_pos[j];
            if v_p is null or p_amounts[j] = 0 or v_asset[v_p] <> coalesce(v_first_asset, v_asset[v_p]) then
              raise exception 'ledger_post_batch: legs name existing accounts of one asset, non-zero amounts'
                using errcode = 'LG003';
            end if;
            v_first_asset := v_asset[v_p];
            if not v_ext[v_p] and v_bal[v_p] + p_amounts[j] < 0 then v_short := p_account_ids[j]; end if;
          end loop;
          if v_short is not null then
            v_status[i] := 'insufficient'; v_detail[i] := v_short::text;
          else
            v_status[i] := 'ok'; v_created[i] := true;
            if v_multi[i] then v_seen := v_seen || p_keys[i]; end if;
            na := na + 1;
            a_ord[na] := i; a_key[na] := p_keys[i]; a_kind[na] := p_kinds[i];
            a_meta[na] := coalesce(p_metadata[i], '{}'::jsonb);
            for j in v_from .. v_from + v_legs - 1 loop
              v_p := v_pos[j];
              v_bal[v_p] := v_bal[v_p] + p_amounts[j];
              ne := ne + 1;
              e_ord[ne] := na; e_account[ne] := p_account_ids[j];
              e_amount[ne] := p_amounts[j]; e_after[ne] := v_bal[v_p];
            end loop;
          end if;
        end if;
        v_from := v_from + v_legs;
      end loop;

      if na > 0 then
        -- 3. The accepted transfers in one statement (ids ascend in batch order), their ids from its
        --    RETURNING. A key a concurrent transaction took meanwhile leaves a row out: the batch
        --    fails whole (nothing commits).
        with ins as (
          insert into ledger_transfers (idempotency_key, kind, created_at, metadata)
          select u.key, u.kind, p_created_at, u.meta
          from unnest(a_key, a_kind, a_meta) with ordinality u(key, kind, meta, n) order by u.n
          on conflict (idempotency_key) do nothing
          returning id, idempotency_key
        )
        select array_agg(ins.id order by a.n), array_agg(a.n order by a.n) into v_ins_ids, v_ins_ords
        from ins join unnest(a_key) with ordinality a(key, n) on a.key = ins.idempotency_key;
        if coalesce(cardinality(v_ins_ids), 0) <> na then
          raise exception 'ledger_post_batch: a key was posted concurrently' using errcode = '40001';
        end if;
        for k in 1..na loop
          v_tid[a_ord[k]] := v_ins_ids[k];
        end loop;
        for k in 1..ne loop
          e_tid[k] := v_ins_ids[e_ord[k]];
        end loop;
        -- 4. Balances (one UPDATE) and the journal (one INSERT, in batch and leg order: the before/after
        --    chains follow the entry ids).
        update ledger_accounts a set balance = b.balance
        from unnest(v_ids, v_bal) b(id, balance) where a.id = b.id and a.balance <> b.balance;
        insert into ledger_entries (transfer_id, account_id, amount, balance_before, balance_after, created_at)
        select e.tid, e.account, e.amount, e.after - e.amount, e.after, p_created_at
        from unnest(e_tid, e_account, e_amount, e_after) with ordinality e(tid, account, amount, after, n)
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
  await sql.raw(FAST_BATCH).execute(db);
}

/** Back to migration 0027's function. */
export async function down(db: Kysely<unknown>): Promise<void> {
  const previous = await import('./0027-ledger-batch.ts');
  await previous.down(db);
  await previous.up(db);
  await sql`drop function ledger_post_batch_in_order(text[], text[], timestamptz, jsonb[], integer[], bigint[], numeric[])`.execute(
    db,
  );
}

/** Path A; see the top of this file. */
const FAST_BATCH = `
  create or replace function ledger_post_batch(
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
    v_leg_ord integer[];
    v_ids bigint[];
    v_bal numeric[];
    v_ext boolean[];
    v_asset text[];
    v_malformed boolean;
    v_safe boolean;
    v_tids bigint[];
  begin
    if v_n not between 1 and 1000 or coalesce(cardinality(p_kinds), -1) <> v_n
       or coalesce(cardinality(p_metadata), -1) <> v_n or coalesce(cardinality(p_leg_counts), -1) <> v_n
       or coalesce(cardinality(p_account_ids), -1) <> coalesce(cardinality(p_amounts), -2)
       or exists (select from unnest(p_leg_counts) c where c is null or c not between 2 and 8)
       or (select sum(c) from unnest(p_leg_counts) c) <> cardinality(p_account_ids) then
      raise exception 'ledger_post_batch: 1..1000 transfers, each with its key, kind, metadata and 2..8 legs'
        using errcode = 'LG003';
    end if;
    -- Every account once, in id order (the order all postings lock in); the balances under the lock.
    with locked as (
      select a.id, a.balance, a.kind, a.asset from ledger_accounts a where a.id = any(p_account_ids) order by a.id for update
    )
    select array_agg(l.id order by l.id), array_agg(l.balance order by l.id),
           array_agg(l.kind = 'system_external' order by l.id), array_agg(l.asset order by l.id)
    into v_ids, v_bal, v_ext, v_asset from locked l;
    -- Each leg's transfer (its position in the batch).
    select array_agg(x.ord order by x.ord) into v_leg_ord
    from unnest(p_leg_counts) with ordinality x(c, ord) cross join lateral generate_series(1, x.c);

    with acc as (select * from unnest(v_ids, v_bal, v_ext, v_asset) a(id, bal, ext, asset)),
    legs as (
      select u.ord, u.id, u.amount, acc.id is null as unknown, acc.bal, acc.ext, acc.asset
      from unnest(p_account_ids, p_amounts, v_leg_ord) u(id, amount, ord) left join acc on acc.id = u.id
    )
    select
      coalesce(bool_or(l.unknown or l.amount is null or l.amount = 0), true) or exists (
        select from legs t group by t.ord having count(distinct t.asset) <> 1 or count(distinct t.id) <> count(*)),
      not exists (
        select from legs w where not w.ext group by w.id, w.bal having w.bal + sum(least(w.amount, 0)) < 0)
    into v_malformed, v_safe
    from legs l;
    if v_malformed then
      raise exception 'ledger_post_batch: legs name distinct existing accounts of one asset, non-zero amounts'
        using errcode = 'LG003';
    end if;
    if not v_safe or exists (select from ledger_transfers t where t.idempotency_key = any(p_keys))
       or (select count(distinct k) from unnest(p_keys) k) <> v_n then
      return query select * from ledger_post_batch_in_order(
        p_keys, p_kinds, p_created_at, p_metadata, p_leg_counts, p_account_ids, p_amounts);
      return;
    end if;

    -- The transfers in one statement (ids ascend in batch order). A key a concurrent transaction
    -- took meanwhile leaves a row out: the batch fails whole (nothing commits).
    with ins as (
      insert into ledger_transfers (idempotency_key, kind, created_at, metadata)
      select u.key, u.kind, p_created_at, coalesce(u.meta, '{}'::jsonb)
      from unnest(p_keys, p_kinds, p_metadata) with ordinality u(key, kind, meta, n) order by u.n
      on conflict (idempotency_key) do nothing
      returning id, idempotency_key
    )
    select array_agg(ins.id order by k.n) into v_tids
    from ins join unnest(p_keys) with ordinality k(key, n) on k.key = ins.idempotency_key;
    if coalesce(cardinality(v_tids), 0) <> v_n then
      raise exception 'ledger_post_batch: a key was posted concurrently' using errcode = '40001';
    end if;
    -- Balances and journal in one statement: each leg's balance after it is the account's balance
    -- under the lock plus its legs so far (window sum in leg order = batch order).
    with legs as (
      select u.n, u.id, u.amount, t.tid,
             acc.bal + sum(u.amount) over (partition by u.id order by u.n) as after
      from unnest(p_account_ids, p_amounts, v_leg_ord) with ordinality u(id, amount, ord, n)
      join unnest(v_ids, v_bal) acc(id, bal) on acc.id = u.id
      join unnest(v_tids) with ordinality t(tid, ord) on t.ord = u.ord
    ), moved as (
      update ledger_accounts a set balance = f.after
      from (select distinct on (l.id) l.id, l.after from legs l order by l.id, l.n desc) f
      where a.id = f.id
    )
    insert into ledger_entries (transfer_id, account_id, amount, balance_before, balance_after, created_at)
    select l.tid, l.id, l.amount, l.after - l.amount, l.after, p_created_at from legs l order by l.n;

    return query select t.ord::integer, t.tid, true, 'ok'::text, null::text
      from unnest(v_tids) with ordinality t(tid, ord);
  end
  $$`;
