import { type Kysely, sql } from 'kysely';

/**
 * `ledger_post_batch` (issue 14), replacing migration 0027's, with an optional last parameter
 * `p_groups` (linked groups, see migration 0028). Same results and guarantees. Two paths:
 *
 * A. The common batch — no key posted before or twice in it, and no account that the batch's debits
 *    could take below zero even if all of them were applied (balance + every negative leg >= 0, so
 *    every transfer, in any order and any grouping, is accepted) — is written here without a
 *    per-transfer loop: a few set-wise statements. Running balances come from a window sum per
 *    account in leg order, so the entries' before/after chains are the ones one-by-one posting gives.
 * B. Any other batch goes to `ledger_post_batch_in_order` (migration 0028), which decides group by group.
 *
 * Both refuse malformed input whole (LG003): a leg naming an unknown account or a zero amount, a
 * transfer whose 2..8 legs are not distinct accounts of one asset, groups not ascending.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop function ledger_post_batch(text[], text[], timestamptz, jsonb[], integer[], bigint[], numeric[])`.execute(
    db,
  );
  await sql.raw(FAST_BATCH).execute(db);
}

/** Back to migration 0027's function. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function ledger_post_batch(text[], text[], timestamptz, jsonb[], integer[], bigint[], numeric[], integer[])`.execute(
    db,
  );
  const previous = await import('./0027-ledger-batch.ts');
  await previous.up(db);
}

/** See the top of this file. */
const FAST_BATCH = `
  create or replace function ledger_post_batch(
    p_keys text[],
    p_kinds text[],
    p_created_at timestamptz,
    p_metadata jsonb[],
    p_leg_counts integer[],
    p_account_ids bigint[],
    p_amounts numeric[],
    p_groups integer[] default null
  ) returns table (ord integer, transfer_id bigint, created boolean, status text, detail text)
  language plpgsql volatile
  set plan_cache_mode = force_generic_plan
  as $$
  declare
    v_n integer := coalesce(cardinality(p_keys), 0);
    v_leg_ord integer[];
    v_ids bigint[];
    v_bal numeric[];
    v_malformed boolean;
    v_safe boolean;
    v_tids bigint[];
    v_groups integer[];
  begin
    -- Statements are few on purpose: at a few transfers a batch, each one's fixed cost weighs as much
    -- as the rows (measured in bench:ledger).
    if v_n not between 1 and 1000 or coalesce(cardinality(p_kinds), -1) <> v_n
       or coalesce(cardinality(p_metadata), -1) <> v_n or coalesce(cardinality(p_leg_counts), -1) <> v_n
       or coalesce(cardinality(p_account_ids), -1) <> coalesce(cardinality(p_amounts), -2)
       or exists (select from unnest(p_leg_counts) c where c is null or c not between 2 and 8)
       or (select sum(c) from unnest(p_leg_counts) c) <> cardinality(p_account_ids)
       or (p_groups is not null and (cardinality(p_groups) <> v_n
           or exists (select from unnest(p_groups) with ordinality g(id, n)
                      where g.id is null or (g.n > 1 and g.id < p_groups[g.n - 1])))) then
      raise exception 'ledger_post_batch: 1..1000 transfers, each with its key, kind, metadata, 2..8 legs and a group (groups ascending)'
        using errcode = 'LG003';
    end if;
    v_groups := coalesce(p_groups, (select array_agg(g) from generate_series(1, v_n) g));
    -- One statement locks every account once, in id order (the order all postings lock in), and decides
    -- the path from the balances under the lock: each leg's transfer, malformed legs, whether every
    -- order is safe, whether the keys are distinct.
    with locked as materialized (
      select a.id, a.balance as bal, a.kind = 'system_external' as ext, a.asset
      from ledger_accounts a where a.id = any(p_account_ids) order by a.id for update
    ),
    leg_ord as (
      select x.ord, row_number() over (order by x.ord, g) as n
      from unnest(p_leg_counts) with ordinality x(c, ord) cross join lateral generate_series(1, x.c) g
    ),
    legs as materialized (
      select u.n, o.ord, u.id, u.amount, acc.id is null as unknown, acc.bal, acc.ext, acc.asset
      from unnest(p_account_ids, p_amounts) with ordinality u(id, amount, n)
      join leg_ord o on o.n = u.n left join locked acc on acc.id = u.id
    )
    select
      (select array_agg(l.id order by l.id) from locked l),
      (select array_agg(l.bal order by l.id) from locked l),
      (select array_agg(l.ord order by l.n) from legs l),
      (select coalesce(bool_or(l.unknown or l.amount is null or l.amount = 0), true) from legs l) or exists (
        select from legs t group by t.ord having count(distinct t.asset) <> 1 or count(distinct t.id) <> count(*)),
      not exists (
        select from legs w where not w.ext group by w.id, w.bal having w.bal + sum(least(w.amount, 0)) < 0)
      and (select count(distinct k) from unnest(p_keys) k) = v_n
    into v_ids, v_bal, v_leg_ord, v_malformed, v_safe;
    if v_malformed then
      raise exception 'ledger_post_batch: legs name distinct existing accounts of one asset, non-zero amounts'
        using errcode = 'LG003';
    end if;
    if not v_safe then
      return query select * from ledger_post_batch_in_order(
        p_keys, p_kinds, p_created_at, p_metadata, p_leg_counts, p_account_ids, p_amounts, v_groups);
      return;
    end if;

    -- The transfers in one statement (ids ascend in batch order). A key posted before (or by a
    -- concurrent transaction, whose end the insert waits for) leaves its row out: then this insert
    -- is taken back (the block's subtransaction) and the batch goes in order, which answers repeats.
    begin
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
        raise exception 'ledger_post_batch: a key was posted before' using errcode = 'LG004';
      end if;
    exception when sqlstate 'LG004' then
      return query select * from ledger_post_batch_in_order(
        p_keys, p_kinds, p_created_at, p_metadata, p_leg_counts, p_account_ids, p_amounts, v_groups);
      return;
    end;
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
