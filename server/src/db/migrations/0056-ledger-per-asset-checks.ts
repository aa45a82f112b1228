import { type Kysely, sql } from 'kysely';

/**
 * Ledger checks per asset (issue 39 item 8).
 * - The statement trigger of migration 0029 summed a transfer's entries over ALL its accounts: a
 *   transfer of +5 USDT and -5 ETH summed to zero, and one asset per transfer rested on the posting
 *   functions alone. It now sums per (transfer, asset): every asset of a transfer must balance.
 * - `ledger_post_batch_in_order` (0028) answered a linked group whose keys were partly posted before
 *   (a retry of a group that differs, a key reused across groups) by posting the new members and
 *   calling the others repeats: the group was split. A group is now all new or all repeats; a mix is
 *   refused as one error (LG003), like a key twice in one group. The function is patched from its
 *   stored definition (pg_get_functiondef), so its settings (0038's enable_seqscan) are kept.
 */
const SPLIT_CHECK_ANCHOR = `        v_short := null; u := 0;\n`;
const SPLIT_CHECK = `${SPLIT_CHECK_ANCHOR}        -- issue 39: a group is all new or all repeats; a key posted before next to new ones would split it.
        for t in i..g_end loop
          if coalesce(v_taken[t] or (v_multi[t] and p_keys[t] = any(v_seen)), false)
             <> coalesce(v_taken[i] or (v_multi[i] and p_keys[i] = any(v_seen)), false) then
            raise exception 'ledger_post_batch: a linked group mixes keys posted before with new ones' using errcode = 'LG003';
          end if;
        end loop;
`;

async function patchInOrder(db: Kysely<unknown>, from: string, to: string): Promise<void> {
  const found = await sql<{ def: string }>`
    select pg_get_functiondef(p.oid) as def from pg_proc p
    where p.proname = 'ledger_post_batch_in_order' and p.pronamespace = current_schema()::regnamespace`.execute(db);
  const def = found.rows[0]?.def;
  if (found.rows.length !== 1 || !def?.includes(from))
    throw new Error('ledger_post_batch_in_order: unexpected definition');
  await sql.raw(def.replace(from, to)).execute(db);
}

const CHECKED = (balanced: string) => `
  create or replace function ledger_entries_checked() returns trigger language plpgsql as $$
  declare
    v_transfer bigint;
    v_account bigint;
    v_unbalanced bigint;
  begin
    -- One query; correlated scalar subqueries (one index probe a row), see migration 0029.
    select
      (select e.transfer_id from inserted e
       where (select t.id from ledger_transfers t where t.id = e.transfer_id) is null limit 1),
      (select e.account_id from inserted e
       where (select a.id from ledger_accounts a where a.id = e.account_id) is null limit 1),
      (select x.transfer_id from (select distinct i.transfer_id from inserted i) x
       where ${balanced} limit 1)
    into v_transfer, v_account, v_unbalanced;
    if v_transfer is not null then
      raise exception 'ledger entry names transfer % that does not exist', v_transfer using errcode = 'foreign_key_violation';
    end if;
    if v_account is not null then
      raise exception 'ledger entry names account % that does not exist', v_account using errcode = 'foreign_key_violation';
    end if;
    if v_unbalanced is not null then
      raise exception 'ledger transfer % does not balance', v_unbalanced using errcode = 'check_violation';
    end if;
    return null;
  end
  $$`;

const PER_ASSET = `(select 1 from ledger_entries e join ledger_accounts a on a.id = e.account_id
              where e.transfer_id = x.transfer_id group by a.asset having sum(e.amount) <> 0 limit 1) is not null`;
const PER_TRANSFER = `(select sum(e.amount) from ledger_entries e where e.transfer_id = x.transfer_id) <> 0`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(CHECKED(PER_ASSET)).execute(db);
  await patchInOrder(db, SPLIT_CHECK_ANCHOR, SPLIT_CHECK);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await patchInOrder(db, SPLIT_CHECK, SPLIT_CHECK_ANCHOR);
  await sql.raw(CHECKED(PER_TRANSFER)).execute(db);
}
