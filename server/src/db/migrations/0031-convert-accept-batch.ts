import { type Kysely, sql } from 'kysely';

/**
 * `convert_accept_batch`: many quote accepts in ONE statement and one durable commit (issue 14:
 * conversions without one hot row). Every conversion crosses the liquidity account of its two
 * coins; accepted one per transaction, each held those rows locked through its round trips and its
 * commit's WAL flush, so a coin's conversions ran one after another (235/s). Here a batch locks them
 * once, and what a conversion writes besides the ledger travels with it in the same transaction:
 *
 * 1. the batch's quotes are locked, in id order (a second accept of a quote, in another batch,
 *    waits here, then finds the conversion);
 * 2. a fresh read (after the locks) classifies each request: not the user's quote -> 'not_found';
 *    converted before -> 'converted' with that conversion; expired at `p_at` -> 'expired'; else a
 *    candidate. A quote asked twice in one batch (by its user) is answered like the first request;
 * 3. the candidates' accounts are resolved (the user's account of the coin received is created when
 *    missing, in one sorted insert), and their transfers go to `ledger_post_batch` as linked groups,
 *    one per conversion (give: user -amount, liquidity +(amount - fee), fees +fee; get: liquidity
 *    -receive, user +receive), so a conversion is posted whole or not at all: one short of funds is
 *    refused alone ('insufficient', or 'liquidity_short' when the short account is a liquidity account);
 * 4. the conversions of the accepted groups are inserted set-wise.
 *
 * The ledger keys are those of the one-by-one path (`convert:<quote>:give|get`), so the two transfers
 * of a quote exist at most once. At most 500 requests a batch.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create type convert_accept_item as (
      n integer, first integer, quote_id uuid, user_id uuid, state text,
      from_asset text, to_asset text, amount_minor numeric, fee_minor numeric, receive_minor numeric,
      rate_num numeric, rate_den numeric, conversion_id uuid, give_tid bigint, get_tid bigint, created_at timestamptz,
      detail text
    )`.execute(db);
  await sql`
    create function convert_accept_batch(p_quote_ids uuid[], p_user_ids uuid[], p_at timestamptz)
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
      v_results convert_accept_item[];
      v_stray uuid;
      l_n integer[]; l_part integer[]; l_leg integer[]; l_kind text[]; l_owner uuid[]; l_asset text[]; l_amount numeric[];
      r_kind text[]; r_owner uuid[]; r_asset text[]; r_id bigint[]; v_resolved boolean;
    begin
      if v_n not between 1 and 500 or coalesce(cardinality(p_user_ids), -1) <> v_n
         or array_position(p_quote_ids, null) is not null or array_position(p_user_ids, null) is not null then
        raise exception 'convert_accept_batch: 1..500 quotes, each with its user' using errcode = 'LG003';
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

      -- 3. The candidates' legs (one account of each kind created when missing, in one sorted insert:
      --    concurrent creators wait on each other, never deadlock), then the ledger, one linked group
      --    per conversion.
      select array_agg(i.n order by i.n, x.part, x.leg), array_agg(x.part order by i.n, x.part, x.leg),
             array_agg(x.leg order by i.n, x.part, x.leg), array_agg(x.kind order by i.n, x.part, x.leg),
             array_agg(x.owner order by i.n, x.part, x.leg), array_agg(x.asset order by i.n, x.part, x.leg),
             array_agg(x.amount order by i.n, x.part, x.leg)
      into l_n, l_part, l_leg, l_kind, l_owner, l_asset, l_amount
      from unnest(v_items) i cross join lateral (values
        (1, 1, 'user_available', i.user_id, i.from_asset, -i.amount_minor),
        (1, 2, 'system_liquidity', null, i.from_asset, i.amount_minor - i.fee_minor),
        (1, 3, 'system_fees', null, i.from_asset, i.fee_minor),
        (2, 1, 'system_liquidity', null, i.to_asset, -i.receive_minor),
        (2, 2, 'user_available', i.user_id, i.to_asset, i.receive_minor)
      ) x(part, leg, kind, owner, asset, amount)
      where i.state = 'candidate' and x.amount <> 0;
      -- Each distinct account once (a probe each); the missing ones created, then looked up again.
      for pass in 1..2 loop
        select array_agg(f.kind), array_agg(f.owner), array_agg(f.asset), array_agg(f.id), coalesce(bool_and(f.id is not null), true)
        into r_kind, r_owner, r_asset, r_id, v_resolved
        from (select r.kind, r.owner, r.asset, case when r.owner is null
                then (select a.id from ledger_accounts a where a.kind = r.kind and a.user_id is null and a.asset = r.asset)
                else (select a.id from ledger_accounts a where a.kind = r.kind and a.user_id = r.owner and a.asset = r.asset)
              end as id
              from (select distinct * from unnest(l_kind, l_owner, l_asset) u(kind, owner, asset)) r) f;
        exit when v_resolved or pass = 2;
        insert into ledger_accounts (kind, user_id, asset)
        select r.kind, r.owner, r.asset from unnest(r_kind, r_owner, r_asset, r_id) r(kind, owner, asset, id)
        where r.id is null order by 1, 2 nulls first, 3
        on conflict (kind, user_id, asset) do nothing;
      end loop;
      if not v_resolved then
        raise exception 'convert_accept_batch: an account could not be resolved' using errcode = 'LG003';
      end if;
      with resolved as materialized (
        select l.n, l.part, l.leg, l.amount, r.id as account_id
        from unnest(l_n, l_part, l_leg, l_kind, l_owner, l_asset, l_amount) l(n, part, leg, kind, owner, asset, amount)
        join unnest(r_kind, r_owner, r_asset, r_id) r(kind, owner, asset, id)
          -- (the nil uuid stands in for "no owner", a system account, so the join can hash)
          on r.kind = l.kind and r.asset = l.asset
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
        with posted as (
          select t.n, t.part, b.status, b.transfer_id, b.created, b.detail
          from unnest(v_groups, v_parts) with ordinality t(n, part, ord)
          join ledger_post_batch(
            (select array_agg('convert:' || i.quote_id || case t.part when 1 then ':give' else ':get' end order by t.ord)
             from unnest(v_groups, v_parts) with ordinality t(n, part, ord) join unnest(v_items) i on i.n = t.n),
            (select array_agg('convert'::text) from unnest(v_groups)),
            p_at,
            (select array_agg(jsonb_build_object('quoteId', i.quote_id, 'from', i.from_asset, 'to', i.to_asset) order by t.ord)
             from unnest(v_groups) with ordinality t(n, ord) join unnest(v_items) i on i.n = t.n),
            v_leg_counts, v_accounts, v_amounts, v_groups
          ) b on b.ord = t.ord
        ), per_conversion as (
          select p.n,
            bool_and(p.status = 'ok' and p.created) as fresh,
            bool_or(p.status = 'key_reused' or (p.status = 'ok' and not p.created)) as stray,
            max(p.transfer_id) filter (where p.part = 1) as give_tid,
            max(p.transfer_id) filter (where p.part = 2) as get_tid,
            max(p.detail) filter (where p.status = 'insufficient') as short_account
          from posted p group by p.n
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
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function convert_accept_batch(uuid[], uuid[], timestamptz)`.execute(db);
  await sql`drop type convert_accept_item`.execute(db);
}
