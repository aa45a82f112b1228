import { type Kysely, sql } from 'kysely';

/**
 * Every transfer to an order's deposit address besides the one the order counts (issue 37, item 2): a
 * second or partial payment, another token, the native coin. Each is booked once, when it has its
 * confirmations, as a late deposit: refunded to the order's refund address (less the network fee), or
 * credited whole to the user's wallet. One row per transfer (`log_index` -1 for a native transfer);
 * the row, its ledger transfer and a refund's payout request are written in one transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table exchange_extra_deposits (
      id bigserial primary key,
      order_id uuid not null references exchange_orders (id),
      network text not null,
      coin text not null,
      tx_hash text not null,
      log_index integer not null check (log_index >= -1),
      amount_minor numeric(78, 0) not null check (amount_minor > 0),
      block_number bigint not null check (block_number >= 0),
      outcome text not null check (outcome in ('refund', 'to_wallet')),
      payout_request_id text,
      created_at timestamptz not null,
      unique (network, tx_hash, log_index),
      check (outcome = 'refund' or payout_request_id is null)
    )`.execute(db);
  await sql`create index exchange_extra_deposits_order on exchange_extra_deposits (order_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table exchange_extra_deposits`.execute(db);
}
