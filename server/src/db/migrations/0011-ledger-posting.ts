import { type Kysely, sql } from 'kysely';

/**
 * Ledger posting in one round trip (modules/ledger/post-transfer.ts).
 *
 * `ledger_post` does, inside the caller's transaction and in one round trip, what postTransfer did
 * in six: insert the transfer (the unique idempotency key settles retries and concurrent posters),
 * lock the accounts FOR UPDATE in ascending id order, refuse a non-external balance below zero,
 * update the balances and append the entries with before/after. The guarantees of migration 0006
 * stay the database's own: CHECK balance >= 0, immutable journal, deferred zero-sum trigger.
 *
 * `ledger_account_ids` resolves (kind, user, asset) references to account ids, creating missing
 * accounts in one fixed order, so a movement is one statement from lookup to journal.
 *
 * Refusals carry their own SQLSTATEs (class LG, not used by PostgreSQL) so the code maps them to
 * domain errors without parsing messages:
 *   LG001 a non-external balance would go below zero (DETAIL: the account id)
 *   LG002 the idempotency key already names a different transfer
 *   LG003 a malformed request (a bug in the caller: the TypeScript side asserts the same first)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Raised from inside the UPDATE below, so the balance test runs on the row version it updates.
  await sql`
    create function ledger_refuse_insufficient(p_account_id bigint) returns numeric
    language plpgsql volatile as $$
    begin
      raise exception 'ledger_post: balance of account % too low', p_account_id
        using errcode = 'LG001', detail = p_account_id::text;
    end
    $$`.execute(db);

  await sql`
    create function ledger_post(
      p_idempotency_key text,
      p_kind text,
      p_created_at timestamptz,
      p_metadata jsonb,
      p_account_ids bigint[],
      p_amounts numeric[],
      out transfer_id bigint,
      out created boolean,
      out created_at timestamptz
    ) language plpgsql volatile
    -- The statements below have array parameters; PostgreSQL's custom plans (sized to each call's
    -- arrays) never look cheaper than the generic one, so without this every call would be planned
    -- afresh: a third of the posting's time. The generic plans are index scans on primary keys.
    set plan_cache_mode = force_generic_plan
    as $$
    declare
      v_legs integer := coalesce(cardinality(p_account_ids), 0);
      v_transfer_id bigint;
      v_kind text;
      v_created_at timestamptz;
      v_applied integer;
      v_assets integer;
    begin
      -- Only the shape is tested here; the rest is refused further down (an unknown or repeated account:
      -- fewer rows updated than legs) or by the constraints of migration 0006 (a zero amount, legs that
      -- do not sum to zero), and the TypeScript side asserts all of it before calling. Each plain
      -- expression here costs its set-up once per transaction, hence so few.
      if v_legs not between 2 and 8 or v_legs <> coalesce(cardinality(p_amounts), -1)
         or array_position(p_account_ids, null) is not null or array_position(p_amounts, null) is not null then
        raise exception 'ledger_post: 2..8 legs with one account and one amount each' using errcode = 'LG003';
      end if;

      -- A concurrent poster of the same key waits here on the unique index until the first one ends.
      insert into ledger_transfers as t (idempotency_key, kind, created_at, metadata)
      values (p_idempotency_key, p_kind, p_created_at, coalesce(p_metadata, '{}'::jsonb))
      on conflict (idempotency_key) do nothing
      returning t.id into v_transfer_id;

      if v_transfer_id is null then
        -- The key is taken: the same transfer again is answered with the earlier one, anything else refused.
        select t.id, t.kind, t.created_at into v_transfer_id, v_kind, v_created_at
        from ledger_transfers t where t.idempotency_key = p_idempotency_key;
        if v_transfer_id is null then
          raise exception 'ledger_post: idempotency key conflict without a visible transfer' using errcode = 'LG003';
        end if;
        if v_kind <> p_kind or exists (
          (select e.account_id, e.amount from ledger_entries e where e.transfer_id = v_transfer_id
           except all select l.account_id, l.amount from unnest(p_account_ids, p_amounts) l(account_id, amount))
          union all
          (select l.account_id, l.amount from unnest(p_account_ids, p_amounts) l(account_id, amount)
           except all select e.account_id, e.amount from ledger_entries e where e.transfer_id = v_transfer_id)
        ) then
          raise exception 'ledger_post: idempotency key % already names a different transfer', p_idempotency_key
            using errcode = 'LG002';
        end if;
        transfer_id := v_transfer_id;
        created := false;
        created_at := v_created_at;
        return;
      end if;

      -- Lock in ascending id order (LockRows runs above Sort, so rows are locked in the sorted order).
      -- Every posting uses this one order, so postings wait for each other, never deadlock.
      perform from ledger_accounts a where a.id = any(p_account_ids) order by a.id for update;

      -- Balances and journal in one statement. It starts after the locks are held, so it reads the
      -- newest row versions directly (the lock statement above has already waited out any other
      -- posting; were both one statement, every contended row would be re-checked after the wait).
      -- A non-external account going below zero raises LG001; the CHECK constraint stays the backstop.
      -- The entries record before (= after - amount, under the lock) and after.
      with moved as (
        update ledger_accounts a
        set balance = case
          when a.kind = 'system_external' or a.balance + l.amount >= 0 then a.balance + l.amount
          else ledger_refuse_insufficient(a.id)
        end
        from unnest(p_account_ids, p_amounts) l(account_id, amount)
        where a.id = l.account_id
        returning a.id, a.asset, l.amount, a.balance as balance_after
      ), journal as (
        insert into ledger_entries (transfer_id, account_id, amount, balance_before, balance_after, created_at)
        select v_transfer_id, m.id, m.amount, m.balance_after - m.amount, m.balance_after, p_created_at
        from moved m
      )
      select count(*), count(distinct m.asset) into v_applied, v_assets from moved m;

      if v_applied <> v_legs or v_assets <> 1 then
        if v_applied <> v_legs then
          raise exception 'ledger_post: every leg names a distinct existing account' using errcode = 'LG003';
        end if;
        raise exception 'ledger_post: all legs in one asset' using errcode = 'LG003';
      end if;
      transfer_id := v_transfer_id;
      created := true;
      created_at := p_created_at;
    end
    $$`.execute(db);

  // The lookup is one statement (two index-friendly branches: user accounts by user_id, system
  // accounts by user_id IS NULL), run once more after creating whatever was missing.
  await sql`
    create function ledger_account_ids(p_kinds text[], p_user_ids uuid[], p_assets text[])
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
          join ledger_accounts a on a.kind = w.kind and a.user_id = w.user_id and a.asset = w.asset
          union all
          select w.ord, a.id
          from unnest(p_kinds, p_user_ids, p_assets) with ordinality w(kind, user_id, asset, ord)
          join ledger_accounts a on a.kind = w.kind and a.user_id is null and a.asset = w.asset
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
        on conflict (kind, user_id, asset) do nothing;
      end loop;
      raise exception 'ledger_account_ids: an account could not be resolved' using errcode = 'LG003';
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists ledger_account_ids(text[], uuid[], text[])`.execute(db);
  await sql`drop function if exists ledger_post(text, text, timestamptz, jsonb, bigint[], numeric[])`.execute(db);
  await sql`drop function if exists ledger_refuse_insufficient(bigint)`.execute(db);
}
