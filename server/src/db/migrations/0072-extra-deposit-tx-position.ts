import { type Kysely, sql } from 'kysely';

/**
 * An extra deposit to an order address (0047) is identified by where it sits in its transaction, not by
 * its block-level log index (review of issue 37, HIGH 1, for extra deposits): a reorg that mines the same
 * transaction again in another block moves every log index in it, and the old key (network, tx_hash,
 * log_index) took the re-mined transfer for a new one and booked it a second time. The new key is
 * (network, tx_hash, order_id, coin, tx_position): `tx_position` is the transfer's place, from 0, among
 * that transaction's non-dust transfers of that coin to that order's address, ordered by log index (a
 * native transfer is its transaction's only one: 0). The order's counted deposit is position 0 of its
 * deposit transaction in its send coin, so an extra transfer of the send coin in that transaction is 1 or
 * more. `log_index` stays as where the transfer was when booked.
 *
 * Backfill: the rows of one (network, tx_hash, order_id, coin) numbered by log index, one up when the
 * order's counted deposit is in that transaction in that coin (it came first: it is the first non-dust
 * transfer). Every non-dust transfer besides the counted one is booked, so the numbering is the position.
 *
 * `order_address_custody` (issue 37 item 2: order addresses join the sweeps): the coins booked into the
 * custody book (world -> deposit addresses) for exchange order addresses, one row per booking, unique on
 * its custody key (`custody:order:<order>:in`, `custody:order-extra:<extra deposit>`); the sweeper reads
 * them as the order addresses' credited coins. Orders booked before it are booked by the signer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table exchange_extra_deposits add column tx_position integer`.execute(db);
  await sql`
    update exchange_extra_deposits e set tx_position = p.position
    from (
      select x.id,
        case when x.log_index < 0 then 0
          else (row_number() over (partition by x.network, x.tx_hash, x.order_id, x.coin order by x.log_index) - 1)
            + case when lower(o.deposit_tx_hash) = x.tx_hash and o.send_coin = x.coin then 1 else 0 end
        end as position
      from exchange_extra_deposits x join exchange_orders o on o.id = x.order_id
    ) p
    where p.id = e.id`.execute(db);
  await sql`alter table exchange_extra_deposits alter column tx_position set not null`.execute(db);
  await sql`alter table exchange_extra_deposits add constraint exchange_extra_deposits_tx_position_check
    check (tx_position >= 0 and (log_index >= 0 or tx_position = 0))`.execute(db);
  await sql`alter table exchange_extra_deposits drop constraint exchange_extra_deposits_network_tx_hash_log_index_key`.execute(
    db,
  );
  await sql`alter table exchange_extra_deposits add constraint exchange_extra_deposits_transfer
    unique (network, tx_hash, order_id, coin, tx_position)`.execute(db);
  await sql`
    create table order_address_custody (
      id bigserial primary key,
      order_id uuid not null references exchange_orders (id),
      network text not null,
      address text not null,
      coin text not null,
      chain_amount numeric(78, 0) not null check (chain_amount > 0),
      custody_key text not null unique,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index order_address_custody_address on order_address_custody (network, address)`.execute(db);
  await sql`create index order_address_custody_order on order_address_custody (order_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table order_address_custody`.execute(db);
  await sql`alter table exchange_extra_deposits drop constraint exchange_extra_deposits_transfer`.execute(db);
  await sql`alter table exchange_extra_deposits drop column tx_position`.execute(db);
  await sql`alter table exchange_extra_deposits add constraint exchange_extra_deposits_network_tx_hash_log_index_key
    unique (network, tx_hash, log_index)`.execute(db);
}
