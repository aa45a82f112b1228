import { type Kysely, sql } from 'kysely';

/**
 * `convert_accept_batch` through a liquidity lane (0034), replacing 0031's. Same steps, results and
 * ledger keys; what changes:
 *
 * - `p_lane` (0..`p_lanes`): the batch's liquidity and fee legs go to that lane of each coin's
 *   account (user legs as before). Lane 0 is the main account: no rebalancing there.
 * - Rebalancing travels with the batch, as its first transfers, so it takes no lock of its own and no
 *   extra order of locks (ledger_post_batch locks every account of the batch once, in id order). Per
 *   coin the batch pays out or takes in, from a read of the coin's liquidity accounts before the
 *   locks (a heuristic only: the posting under the locks decides), with W = total liquidity of the
 *   coin / (2 x p_lanes), the lane's working float (half the coin's liquidity spread over the lanes,
 *   half kept on the main account):
 *     - the lane, after this batch's payouts, would hold less than W / 2: lane 0 -> lane, enough to
 *       bring it to W after the payouts, at most what lane 0 holds;
 *     - the lane holds more than 2 W: lane -> lane 0, down to W.
 *   Between W / 2 and 2 W nothing moves, so lane 0 is locked only now and then. A rebalancing
 *   transfer refused for funds (lane 0 drained since the read) is refused alone; a conversion it
 *   would have paid is then refused `liquidity_short`, and the caller consolidates (below) and
 *   tries that conversion again on lane 0.
 * - `convert_liquidity_consolidate(asset, at)`: every lane of the coin back to lane 0, under the
 *   accounts' locks (taken in id order). The answer to a conversion refused on a lane.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop function convert_accept_batch(uuid[], uuid[], timestamptz)`.execute(db);
  await sql.raw(ACCEPT_BATCH).execute(db);
  await sql.raw(CONSOLIDATE).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function convert_liquidity_consolidate(text, timestamptz)`.execute(db);
  await sql`drop function convert_accept_batch(uuid[], uuid[], timestamptz, smallint, smallint)`.execute(db);
  await sql`drop type convert_accept_item`.execute(db);
  const previous = await import('./0031-convert-accept-batch.ts');
  await previous.up(db);
}

const ACCEPT_BATCH = `
  create function convert_accept_batch(
    p_quote_ids uuid[], p_user_ids uuid[], p_at timestamptz, p_lane smallint, p_lanes smallint
  )
  returns table (
    ord integer, outcome text, detail text, conversion_id uuid, created_at timestamptz,
    give_transfer_id bigint, get_transfer_id bigint, from_asset text, to_asset text,
    amount_minor numeric, fee_minor numeric, receive_minor numeric, rate_num numeric, rate_den numeric
  )
  language plpgsql volatile
  set plan_cache_mode = force_generic_plan
  as $$
  declare
    v_n integer := coalesce(cardinality(p_quote_ids), 0);
    v_items convert_accept_item[];
    v_accounts bigint[]; v_amounts numeric[]; v_leg_counts integer[]; v_groups integer[]; v_parts integer[];
    v_keys text[]; v_meta jsonb[];
    v_results convert_accept_item[];
    v_stray uuid;
    b_n integer[]; b_asset text[]; b_amount numeric[];
    l_n integer[]; l_part integer[]; l_leg integer[]; l_kind text[]; l_owner uuid[]; l_asset text[];
    l_lane smallint[]; l_amount numeric[];
    r_kind text[]; r_owner uuid[]; r_asset text[]; r_lane smallint[]; r_id bigint[]; v_resolved boolean;
  begin
    if v_n not between 1 and 500 or coalesce(cardinality(p_user_ids), -1) <> v_n
       or array_position(p_quote_ids, null) is not null or array_position(p_user_ids, null) is not null
       or p_lanes is null or p_lanes not between 1 and 15 or p_lane is null or p_lane not between 0 and p_lanes then
      raise exception 'convert_accept_batch: 1..500 quotes, each with its user; a lane in 0..lanes, lanes in 1..15'
        using errcode = 'LG003';
    end if;
    -- 1. The quotes, locked in id order.
    perform from convert_quotes q where q.id = any(p_quote_ids) order by q.id for update;

    -- 2. Its own statement, so a fresh snapshot: conversions committed while this waited are seen.
    select array_agg(row(r.n, r.first, r.quote_id, r.user_id,
        case when r.n <> r.first then 'repeat' when q.id is null then 'not_found' when c.id is not null then 'converted'
             when q.expires_at <= p_at then 'expired' else 'candidate' end,
        q.from_asset, q.to_asset, q.amount_minor, q.fee_minor, q.receive_minor, q.rate_num, q.rate_den,
        c.id, c.give_transfer_id, c.get_transfer_id, c.created_at, null)::convert_accept_item order by r.n)
    into v_items
    from (select u.*, min(u.n) over (partition by u.quote_id, u.user_id) as first
          from unnest(p_quote_ids, p_user_ids) with ordinality u(quote_id, user_id, n)) r
    left join convert_quotes q on q.id = r.quote_id and q.user_id = r.user_id
    left join conversions c on c.quote_id = q.id;

    -- 3a. The lane's rebalancing, per coin the candidates touch (numbered -k..-1: first in the batch).
    if p_lane > 0 then
      with touched as (
        select x.asset, sum(x.out_minor) as out_minor
        from unnest(v_items) i cross join lateral (values (i.to_asset, i.receive_minor), (i.from_asset, 0)) x(asset, out_minor)
        where i.state = 'candidate' group by x.asset
      ), balances as (
        select t.asset, t.out_minor,
          coalesce(sum(a.balance) filter (where a.lane = 0), 0) as main,
          coalesce(sum(a.balance) filter (where a.lane = p_lane), 0) as lane,
          div(coalesce(sum(a.balance), 0), 2 * p_lanes) as float_minor
        from touched t left join ledger_accounts a
          on a.kind = 'system_liquidity' and a.user_id is null and a.asset = t.asset
        group by t.asset, t.out_minor
      ), decided as (
        select b.asset, case
          when b.lane - b.out_minor < div(b.float_minor, 2) then least(b.main, b.float_minor + b.out_minor - b.lane)
          when b.lane > 2 * b.float_minor then -(b.lane - b.float_minor)
          else 0 end as amount
        from balances b
      )
      select array_agg(d.n order by d.n), array_agg(d.asset order by d.n), array_agg(d.amount order by d.n)
      into b_n, b_asset, b_amount
      from (select -(row_number() over (order by d.asset))::integer as n, d.asset, d.amount
            from decided d where d.amount <> 0) d;
    end if;

    -- 3b. The legs: rebalancing (lane 0 <-> the lane) and the candidates' conversions.
    select array_agg(x.n order by x.n, x.part, x.leg), array_agg(x.part order by x.n, x.part, x.leg),
           array_agg(x.leg order by x.n, x.part, x.leg), array_agg(x.kind order by x.n, x.part, x.leg),
           array_agg(x.owner order by x.n, x.part, x.leg), array_agg(x.asset order by x.n, x.part, x.leg),
           array_agg(x.lane order by x.n, x.part, x.leg), array_agg(x.amount order by x.n, x.part, x.leg)
    into l_n, l_part, l_leg, l_kind, l_owner, l_asset, l_lane, l_amount
    from (
      select b.n, 1 as part, m.leg, 'system_liquidity' as kind, null::uuid as owner, b.asset, m.lane, m.amount
      from unnest(b_n, b_asset, b_amount) b(n, asset, amount)
      cross join lateral (values (1, 0::smallint, -b.amount), (2, p_lane, b.amount)) m(leg, lane, amount)
      union all
      select i.n, y.part, y.leg, y.kind, y.owner, y.asset, y.lane, y.amount
      from unnest(v_items) i cross join lateral (values
        (1, 1, 'user_available', i.user_id, i.from_asset, 0::smallint, -i.amount_minor),
        (1, 2, 'system_liquidity', null, i.from_asset, p_lane, i.amount_minor - i.fee_minor),
        (1, 3, 'system_fees', null, i.from_asset, p_lane, i.fee_minor),
        (2, 1, 'system_liquidity', null, i.to_asset, p_lane, -i.receive_minor),
        (2, 2, 'user_available', i.user_id, i.to_asset, 0::smallint, i.receive_minor)
      ) y(part, leg, kind, owner, asset, lane, amount)
      where i.state = 'candidate' and y.amount <> 0
    ) x;
    -- Each distinct account once (a probe each); the missing ones created, then looked up again.
    for pass in 1..2 loop
      select array_agg(f.kind), array_agg(f.owner), array_agg(f.asset), array_agg(f.lane), array_agg(f.id),
             coalesce(bool_and(f.id is not null), true)
      into r_kind, r_owner, r_asset, r_lane, r_id, v_resolved
      from (select r.kind, r.owner, r.asset, r.lane, case when r.owner is null
              then (select a.id from ledger_accounts a
                    where a.kind = r.kind and a.user_id is null and a.asset = r.asset and a.lane = r.lane)
              else (select a.id from ledger_accounts a
                    where a.kind = r.kind and a.user_id = r.owner and a.asset = r.asset and a.lane = r.lane)
            end as id
            from (select distinct * from unnest(l_kind, l_owner, l_asset, l_lane) u(kind, owner, asset, lane)) r) f;
      exit when v_resolved or pass = 2;
      insert into ledger_accounts (kind, user_id, asset, lane)
      select r.kind, r.owner, r.asset, r.lane from unnest(r_kind, r_owner, r_asset, r_lane, r_id) r(kind, owner, asset, lane, id)
      where r.id is null order by 1, 2 nulls first, 3, 4
      on conflict (kind, user_id, asset, lane) do nothing;
    end loop;
    if not v_resolved then
      raise exception 'convert_accept_batch: an account could not be resolved' using errcode = 'LG003';
    end if;
    with resolved as materialized (
      select l.n, l.part, l.leg, l.amount, r.id as account_id
      from unnest(l_n, l_part, l_leg, l_kind, l_owner, l_asset, l_lane, l_amount) l(n, part, leg, kind, owner, asset, lane, amount)
      join unnest(r_kind, r_owner, r_asset, r_lane, r_id) r(kind, owner, asset, lane, id)
        -- (the nil uuid stands in for "no owner", a system account, so the join can hash)
        on r.kind = l.kind and r.asset = l.asset and r.lane = l.lane
        and coalesce(r.owner, '00000000-0000-0000-0000-000000000000') = coalesce(l.owner, '00000000-0000-0000-0000-000000000000')
    ), transfers as (
      select l.n, l.part, count(*)::integer as legs from resolved l group by l.n, l.part
    )
    select (select array_agg(l.account_id order by l.n, l.part, l.leg) from resolved l),
           (select array_agg(l.amount order by l.n, l.part, l.leg) from resolved l),
           (select array_agg(t.legs order by t.n, t.part) from transfers t),
           (select array_agg(t.n order by t.n, t.part) from transfers t),
           (select array_agg(t.part order by t.n, t.part) from transfers t)
    into v_accounts, v_amounts, v_leg_counts, v_groups, v_parts;

    if v_groups is not null then
      -- Keys: a conversion's as on the one-by-one path; a rebalancing's its own.
      select array_agg(k.key order by k.ord), array_agg(k.meta order by k.ord) into v_keys, v_meta
      from (
        select t.ord, case when t.n < 0 then 'convert:lane:' || gen_random_uuid()
                      else 'convert:' || i.quote_id || case t.part when 1 then ':give' else ':get' end end as key,
               case when t.n < 0 then jsonb_build_object('purpose', 'liquidity_rebalance', 'lane', p_lane, 'asset', b.asset)
                    else jsonb_build_object('quoteId', i.quote_id, 'from', i.from_asset, 'to', i.to_asset) end as meta
        from unnest(v_groups, v_parts) with ordinality t(n, part, ord)
        left join unnest(v_items) i on i.n = t.n
        left join unnest(b_n, b_asset) b(n, asset) on b.n = t.n
      ) k;
      with posted as (
        select t.n, t.part, p.status, p.transfer_id, p.created, p.detail
        from unnest(v_groups, v_parts) with ordinality t(n, part, ord)
        join ledger_post_batch(v_keys, (select array_agg('convert'::text) from unnest(v_groups)), p_at, v_meta,
          v_leg_counts, v_accounts, v_amounts, v_groups) p on p.ord = t.ord
      ), per_conversion as (
        select p.n,
          bool_and(p.status = 'ok' and p.created) as fresh,
          bool_or(p.status = 'key_reused' or (p.status = 'ok' and not p.created)) as stray,
          max(p.transfer_id) filter (where p.part = 1) as give_tid,
          max(p.transfer_id) filter (where p.part = 2) as get_tid,
          max(p.detail) filter (where p.status = 'insufficient') as short_account
        from posted p where p.n > 0 group by p.n
      )
      select array_agg(row(i.n, i.first, i.quote_id, i.user_id,
          case when c.stray then 'stray' when c.fresh then 'converted'
               when a.kind = 'system_liquidity' then 'liquidity_short' else 'insufficient' end,
          i.from_asset, i.to_asset, i.amount_minor, i.fee_minor, i.receive_minor, i.rate_num, i.rate_den,
          null, c.give_tid, c.get_tid, p_at, c.short_account)::convert_accept_item order by i.n)
      into v_results
      from per_conversion c join unnest(v_items) i on i.n = c.n
      left join ledger_accounts a on a.id = c.short_account::bigint;
      select r.quote_id into v_stray from unnest(v_results) r where r.state = 'stray' limit 1;
      if found then
        raise exception 'convert_accept_batch: the ledger holds transfers of quote % without its conversion', v_stray
          using errcode = 'LG003';
      end if;
    end if;

    -- 4. The accepted conversions, set-wise; then one answer per request (a repeat as its first).
    insert into conversions (quote_id, user_id, from_asset, to_asset, amount_minor, fee_minor, receive_minor,
      rate_num, rate_den, give_transfer_id, get_transfer_id, created_at)
    select r.quote_id, r.user_id, r.from_asset, r.to_asset, r.amount_minor, r.fee_minor, r.receive_minor,
      r.rate_num, r.rate_den, r.give_tid, r.get_tid, p_at
    from unnest(v_results) r where r.state = 'converted';
    return query
      with answers as (
        select i.n, coalesce(r.state, i.state) as state, r.detail,
               coalesce(r.give_tid, i.give_tid) as give_tid, coalesce(r.get_tid, i.get_tid) as get_tid,
               coalesce(c.id, i.conversion_id) as conversion_id, coalesce(c.created_at, i.created_at) as created_at
        from unnest(v_items) i
        left join unnest(v_results) r on r.n = i.n
        left join conversions c on c.quote_id = i.quote_id and r.state = 'converted'
      )
      select i.n::integer, f.state, f.detail, f.conversion_id, f.created_at, f.give_tid, f.get_tid,
        i.from_asset, i.to_asset, i.amount_minor, i.fee_minor, i.receive_minor, i.rate_num, i.rate_den
      from unnest(v_items) i join answers f on f.n = i.first
      order by i.n;
  end
  $$`;

const CONSOLIDATE = `
  create function convert_liquidity_consolidate(p_asset text, p_at timestamptz) returns integer
  language plpgsql volatile
  as $$
  declare
    v_main bigint; v_ids bigint[]; v_balances numeric[]; v_n integer;
  begin
    -- Every liquidity account of the coin, locked in id order (the order every posting locks in).
    perform from ledger_accounts a
    where a.kind = 'system_liquidity' and a.user_id is null and a.asset = p_asset order by a.id for update;
    select a.id into v_main from ledger_accounts a
    where a.kind = 'system_liquidity' and a.user_id is null and a.asset = p_asset and a.lane = 0;
    select array_agg(a.id order by a.id), array_agg(a.balance order by a.id) into v_ids, v_balances
    from ledger_accounts a
    where a.kind = 'system_liquidity' and a.user_id is null and a.asset = p_asset and a.lane > 0 and a.balance > 0;
    v_n := coalesce(cardinality(v_ids), 0);
    if v_main is null or v_n = 0 then
      return 0;
    end if;
    perform from ledger_post_batch(
      (select array_agg('convert:lane:' || gen_random_uuid()) from generate_series(1, v_n)),
      array_fill('convert'::text, array[v_n]), p_at,
      array_fill(jsonb_build_object('purpose', 'liquidity_consolidate', 'asset', p_asset), array[v_n]),
      array_fill(2, array[v_n]),
      (select array_agg(m.account order by u.n, m.leg) from unnest(v_ids) with ordinality u(id, n)
       cross join lateral (values (1, u.id), (2, v_main)) m(leg, account)),
      (select array_agg(m.amount order by u.n, m.leg) from unnest(v_balances) with ordinality u(balance, n)
       cross join lateral (values (1, -u.balance), (2, u.balance)) m(leg, amount))
    );
    return v_n;
  end
  $$`;
