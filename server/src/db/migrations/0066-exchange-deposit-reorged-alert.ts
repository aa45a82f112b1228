import { type Kysely, sql } from 'kysely';

/**
 * Chain alert `exchange_deposit_reorged` (issue 37, item 9): an exchange order's booked deposit is no
 * longer on the chain (a reorg removed it) after the order was paid or refunded from it. The wallet's
 * deposits have the deep-reorg alert; the exchange engine raises this one, one open per order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table chain_alerts drop constraint chain_alerts_kind_check`.execute(db);
  await sql`alter table chain_alerts add constraint chain_alerts_kind_check check (kind in ('fork_not_found',
    'chain_id_mismatch', 'remined_transfer_differs', 'unexplained_balance', 'history_page_cap',
    'exchange_deposit_reorged'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from chain_alerts where kind = 'exchange_deposit_reorged'`.execute(db);
  await sql`alter table chain_alerts drop constraint chain_alerts_kind_check`.execute(db);
  await sql`alter table chain_alerts add constraint chain_alerts_kind_check check (kind in ('fork_not_found',
    'chain_id_mismatch', 'remined_transfer_differs', 'unexplained_balance', 'history_page_cap'))`.execute(db);
}
