import { type Kysely, sql } from 'kysely';

/**
 * Ledger posting in one round trip (modules/ledger/post-transfer.ts).
 *
 * `ledger_post` does, inside the caller's transaction and in one statement, what postTransfer did
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
  await sql`
    create function ledger_post(
      p_idempotency_key text,
      p_kind text,
      p_created_at timestamptz,
      p_metadata jsonb,
      p_account_ids bigint[],
      p_amounts numeric[]
    ) returns table (transfer_id bigint, created boolean, created_at timestamptz)
    language plpgsql volatile as $$
    #variable_conflict use_column
    declare
      v_legs integer := coalesce(cardinality(p_account_ids), 0);
      v_transfer_id bigint;
      v_kind text;
      v_created_at timestamptz;
      v_asset text;
      v_locked integer := 0;
      v_amount numeric;
      v_rows integer;
      r record;
    begin
      -- Shape first (2..8 legs, one amount per account, non-zero, distinct accounts, sum zero).
      if v_legs not between 2 and 8 or v_legs <> coalesce(cardinality(p_amounts), -1) then
        raise exception 'ledger_post: 2..8 legs with one amount each' using errcode = 'LG003';
      end if;
      if array_position(p_account_ids, null) is not null or array_position(p_amounts, null) is not null
         or array_position(p_amounts, 0::numeric) is not null then
        raise exception 'ledger_post: leg accounts and non-zero amounts required' using errcode = 'LG003';
      end if;
      if (select count(distinct a) from unnest(p_account_ids) a) <> v_legs then
        raise exception 'ledger_post: one leg per account' using errcode = 'LG003';
      end if;
      if (select sum(a) from unnest(p_amounts) a) <> 0 then
        raise exception 'ledger_post: legs sum to zero' using errcode = 'LG003';
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
        return query select v_transfer_id, false, v_created_at;
        return;
      end if;

      -- Lock in ascending id order: every posting uses this one order, so postings wait, never deadlock.
      -- (LockRows runs above Sort, so rows are locked in the sorted order.)
      for r in
        select a.id, a.kind, a.asset, a.balance from ledger_accounts a
        where a.id = any(p_account_ids) order by a.id for update
      loop
        v_locked := v_locked + 1;
        if v_asset is null then
          v_asset := r.asset;
        elsif v_asset <> r.asset then
          raise exception 'ledger_post: all legs in one asset' using errcode = 'LG003';
        end if;
        v_amount := p_amounts[array_position(p_account_ids, r.id)];
        if r.kind <> 'system_external' and r.balance + v_amount < 0 then
          raise exception 'ledger_post: balance of account % too low', r.id
            using errcode = 'LG001', detail = r.id::text;
        end if;
      end loop;
      if v_locked <> v_legs then
        raise exception 'ledger_post: every leg names an existing account' using errcode = 'LG003';
      end if;

      -- Balances and journal in one statement; the CHECK constraint stays the backstop for the test above.
      with moved as (
        update ledger_accounts a set balance = a.balance + l.amount
        from unnest(p_account_ids, p_amounts) l(account_id, amount)
        where a.id = l.account_id
        returning a.id, l.amount, a.balance as balance_after
      )
      insert into ledger_entries (transfer_id, account_id, amount, balance_before, balance_after, created_at)
      select v_transfer_id, m.id, m.amount, m.balance_after - m.amount, m.balance_after, p_created_at from moved m;
      get diagnostics v_rows = row_count;
      if v_rows <> v_legs then
        raise exception 'ledger_post: % of % legs applied', v_rows, v_legs using errcode = 'LG003';
      end if;

      return query select v_transfer_id, true, p_created_at;
    end
    $$`.execute(db);

  await sql`
    create function ledger_account_ids(p_kinds text[], p_user_ids uuid[], p_assets text[])
    returns bigint[] language plpgsql volatile as $$
    declare
      v_n integer := coalesce(cardinality(p_kinds), 0);
      v_ids bigint[] := '{}';
      v_id bigint;
      v_pass integer;
    begin
      if v_n not between 1 and 8 or coalesce(cardinality(p_user_ids), -1) <> v_n
         or coalesce(cardinality(p_assets), -1) <> v_n then
        raise exception 'ledger_account_ids: 1..8 references of kind, user and asset' using errcode = 'LG003';
      end if;
      -- Pass 1 reads (accounts exist after first use); pass 2 runs after creating the missing ones.
      for v_pass in 1..2 loop
        v_ids := '{}';
        for i in 1..v_n loop
          if p_user_ids[i] is null then
            select a.id into v_id from ledger_accounts a
            where a.kind = p_kinds[i] and a.user_id is null and a.asset = p_assets[i];
          else
            select a.id into v_id from ledger_accounts a
            where a.kind = p_kinds[i] and a.user_id = p_user_ids[i] and a.asset = p_assets[i];
          end if;
          exit when v_id is null;
          v_ids := v_ids || v_id;
        end loop;
        if cardinality(v_ids) = v_n then
          return v_ids;
        end if;
        exit when v_pass = 2;
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
}
