import { type Kysely, sql } from 'kysely';

/**
 * Liquidity lanes (issue 14: conversions without one hot row). Batched accepts (0031) still queued
 * on one liquidity row per coin: each batch held the coin's `system_liquidity` (and `system_fees`)
 * row from its update to the end of its commit's WAL flush, so batches of different clients
 * committed one after another. A system liquidity or fees account now has lanes: lane 0 is the
 * account every other part of the system uses (operators fund it, the exchange engine pays from it,
 * development liquidity is seeded into it); lanes 1..N are sub-accounts that only conversions use,
 * one per concurrent accept batch, so N batches commit side by side.
 *
 * - `lane` joins the account's identity (unique with kind, user, asset; kept by the identity trigger).
 *   User accounts and every other kind have lane 0 only.
 * - `ledger_account_ids` (0011) resolves lane 0, as before.
 * - `convert_accept_batch` gains `p_lane` and `p_lanes` (see the function body in 0035): a batch
 *   posts through its lane and rebalances that lane against lane 0 in the same batch.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table ledger_accounts add column lane smallint not null default 0,
    add constraint ledger_accounts_lane check (lane between 0 and 15 and (lane = 0 or kind in ('system_liquidity', 'system_fees')))`.execute(
    db,
  );
  await sql`alter table ledger_accounts drop constraint ledger_accounts_kind_user_asset`.execute(db);
  await sql`
    alter table ledger_accounts add constraint ledger_accounts_kind_user_asset_lane
    unique nulls not distinct (kind, user_id, asset, lane)`.execute(db);
  await sql`drop trigger ledger_accounts_identity_kept on ledger_accounts`.execute(db);
  await sql`
    create trigger ledger_accounts_identity_kept before update of id, kind, user_id, asset, lane on ledger_accounts
    for each row when (old.id is distinct from new.id or old.kind is distinct from new.kind
      or old.user_id is distinct from new.user_id or old.asset is distinct from new.asset
      or old.lane is distinct from new.lane)
    execute function ledger_rows_kept()`.execute(db);
  await sql.raw(accountIds('and a.lane = 0', 'on conflict (kind, user_id, asset, lane) do nothing')).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Lane accounts cannot be deleted (the journal refers to them: ledger_rows_kept), nor folded into
  // lane 0 here without postings; going below this migration needs their balances moved by hand first.
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ledger_accounts where lane <> 0`.execute(db);
  if ((rows[0]?.n ?? 0) > 0) throw new Error('0034 down: liquidity lane accounts exist; they cannot be removed');
  await sql`drop trigger ledger_accounts_identity_kept on ledger_accounts`.execute(db);
  await sql`
    create trigger ledger_accounts_identity_kept before update of id, kind, user_id, asset on ledger_accounts
    for each row when (old.id is distinct from new.id or old.kind is distinct from new.kind
      or old.user_id is distinct from new.user_id or old.asset is distinct from new.asset)
    execute function ledger_rows_kept()`.execute(db);
  await sql`alter table ledger_accounts drop constraint ledger_accounts_kind_user_asset_lane`.execute(db);
  await sql`alter table ledger_accounts add constraint ledger_accounts_kind_user_asset unique nulls not distinct (kind, user_id, asset)`.execute(
    db,
  );
  await sql.raw(accountIds('', 'on conflict (kind, user_id, asset) do nothing')).execute(db);
  await sql`alter table ledger_accounts drop constraint ledger_accounts_lane, drop column lane`.execute(db);
}

/** 0011's `ledger_account_ids`, with a lane filter and the conflict target of the unique key. */
const accountIds = (laneFilter: string, onConflict: string) => `
  create or replace function ledger_account_ids(p_kinds text[], p_user_ids uuid[], p_assets text[])
  returns bigint[] language plpgsql volatile
  set plan_cache_mode = force_generic_plan
  as $$
  declare
    v_n integer := coalesce(cardinality(p_kinds), 0);
    v_ids bigint[];
  begin
    if v_n not between 1 and 8 or coalesce(cardinality(p_user_ids), -1) <> v_n
       or coalesce(cardinality(p_assets), -1) <> v_n then
      raise exception 'ledger_account_ids: 1..8 references of kind, user and asset' using errcode = 'LG003';
    end if;
    for pass in 1..2 loop
      select array_agg(f.id order by f.ord) into v_ids from (
        select w.ord, a.id
        from unnest(p_kinds, p_user_ids, p_assets) with ordinality w(kind, user_id, asset, ord)
        join ledger_accounts a on a.kind = w.kind and a.user_id = w.user_id and a.asset = w.asset ${laneFilter}
        union all
        select w.ord, a.id
        from unnest(p_kinds, p_user_ids, p_assets) with ordinality w(kind, user_id, asset, ord)
        join ledger_accounts a on a.kind = w.kind and a.user_id is null and a.asset = w.asset ${laneFilter}
        where w.user_id is null
      ) f;
      if coalesce(cardinality(v_ids), 0) = v_n then
        return v_ids;
      end if;
      exit when pass = 2;
      -- Created in one fixed order, so two transactions creating the same accounts wait, never deadlock.
      -- A concurrent creator is settled by the unique key; the next pass (a new snapshot) sees its row.
      insert into ledger_accounts (kind, user_id, asset)
      select w.kind, w.user_id, w.asset from unnest(p_kinds, p_user_ids, p_assets) w(kind, user_id, asset)
      order by w.kind, w.user_id nulls first, w.asset
      ${onConflict};
    end loop;
    raise exception 'ledger_account_ids: an account could not be resolved' using errcode = 'LG003';
  end
  $$`;
