import { type Kysely, sql } from 'kysely';

/**
 * Address watchers' unfinished history reads (issue 39 review): TronGrid and Esplora list an address's
 * history newest first and a tick reads at most 40 pages of it. When more than that arrived between two
 * reads, the read stops with older, unread history behind it; the next tick must go on from there, not
 * from the newest page again (it would stop at the first recorded transaction and never reach what lies
 * behind the flood). One row per (network, address, listing) — a TRON address has its native listing
 * and one per TRC-20 contract:
 * - `resume_from`: where the unfinished read goes on (Esplora: the oldest txid read; TronGrid: the
 *   fingerprint of the next page); null once the read reached history it had read before;
 * - `finished`: whether it did.
 * Written in the transaction that records what the read found, so a crash never moves past unread history.
 * The chain alert kind `history_page_cap` says a read hit the page cap (an address under a flood).
 *
 * Also (issue 39 item 5's fallback, chain/evm-balance-check.ts): an index on deposits by (network,
 * to_address, coin), so the unexplained-balance check sums one address's native deposits without
 * reading the network's whole deposit table each tick.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table address_history_reads (
      network text not null,
      address text not null,
      listing text not null check (length(listing) between 1 and 100),
      resume_from text check (length(resume_from) between 1 and 500),
      finished boolean not null,
      updated_at timestamptz not null,
      primary key (network, address, listing),
      check (finished = (resume_from is null))
    )`.execute(db);
  await sql`alter table chain_alerts drop constraint chain_alerts_kind_check`.execute(db);
  await sql`alter table chain_alerts add constraint chain_alerts_kind_check check (kind in ('fork_not_found',
    'chain_id_mismatch', 'remined_transfer_differs', 'unexplained_balance', 'history_page_cap'))`.execute(db);
  await sql`create index deposits_address_coin_idx on deposits (network, to_address, coin)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index deposits_address_coin_idx`.execute(db);
  await sql`delete from chain_alerts where kind = 'history_page_cap'`.execute(db);
  await sql`alter table chain_alerts drop constraint chain_alerts_kind_check`.execute(db);
  await sql`alter table chain_alerts add constraint chain_alerts_kind_check check (kind in ('fork_not_found',
    'chain_id_mismatch', 'remined_transfer_differs', 'unexplained_balance'))`.execute(db);
  await sql`drop table address_history_reads`.execute(db);
}
