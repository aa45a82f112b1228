import { type Kysely, sql } from 'kysely';

/**
 * Custody and deposit sweeps (issue 15).
 *
 * The custody book: where the platform's coins sit on chain, in the same ledger, on CHAIN assets
 * (`<COIN>@<network>`, e.g. `USDT@bsc`, in the chain's own unit: USDT on BSC and on Ethereum are two
 * different tokens). Three kinds carry it:
 * - `system_deposit_addresses`: what the users' deposit addresses hold (booked when a deposit is credited,
 *   when gas is topped up, and taken out by a sweep);
 * - `system_hot_wallet` (the kind existed, unused until now): what the hot wallet holds, from an opening
 *   read on chain at one block (`custody_openings`) plus every movement mined after that block;
 * - `system_external` on the chain asset: the outside world, as for coins (the only account below zero).
 * Only those three kinds may hold a chain asset, and those two custody kinds hold nothing else.
 *
 * `sweep_transactions`: the signer's gas top-ups (hot wallet -> deposit address) and sweeps (deposit
 * address -> hot wallet), each signed and recorded BEFORE it is broadcast, like withdrawals
 * (signer_transactions), so a crash rebroadcasts the same bytes and never pays twice.
 * `deposits.custody_transfer_id`: the custody posting of a credited deposit (null for deposits credited
 * before this migration until the signer books them).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ledger_accounts drop constraint ledger_accounts_kind_check`.execute(db);
  await sql`alter table ledger_accounts add constraint ledger_accounts_kind_check check (kind in (
    'user_available', 'user_locked', 'user_rewards', 'system_hot_wallet', 'system_fees', 'system_liquidity',
    'system_rewards', 'system_external', 'system_deposit_addresses'))`.execute(db);
  await sql`alter table ledger_accounts drop constraint ledger_accounts_asset_check`.execute(db);
  await sql`alter table ledger_accounts add constraint ledger_accounts_asset_check
    check (asset ~ '^[A-Z0-9]{2,10}(@[a-z]{2,12})?$')`.execute(db);
  await sql`alter table ledger_accounts add constraint ledger_accounts_chain_asset check (
    (position('@' in asset) > 0) = (kind in ('system_hot_wallet', 'system_deposit_addresses'))
    or (kind = 'system_external' and position('@' in asset) > 0))`.execute(db);

  await sql`
    create table custody_openings (
      network text primary key,
      address text not null,
      block_number bigint not null check (block_number >= 0),
      created_at timestamptz not null
    )`.execute(db);

  await sql`
    create table sweep_transactions (
      id bigserial primary key,
      kind text not null check (kind in ('gas_topup', 'sweep')),
      network text not null,
      chain_id bigint not null,
      coin text not null,
      deposit_address text not null,
      from_address text not null,
      to_address text not null,
      chain_amount numeric(78, 0) not null check (chain_amount > 0),
      nonce bigint not null check (nonce >= 0),
      gas_limit bigint not null check (gas_limit > 0),
      gas_price_wei numeric(78, 0) not null check (gas_price_wei > 0),
      tx_hash text not null unique,
      raw_tx text not null,
      state text not null check (state in ('signed', 'mined', 'reverted')),
      broadcast_count integer not null default 0,
      last_error text,
      block_number bigint,
      fee_wei numeric(78, 0),
      custody_transfer_id bigint,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (chain_id, from_address, nonce),
      check ((state = 'signed') = (block_number is null)),
      check ((state = 'signed') = (fee_wei is null))
    )`.execute(db);
  await sql`create index sweep_transactions_open on sweep_transactions (id) where state = 'signed'`.execute(db);
  await sql`create index sweep_transactions_address on sweep_transactions (network, deposit_address, coin)`.execute(db);

  await sql`alter table deposits add column custody_transfer_id bigint`.execute(db);
  await sql`create index deposits_custody_unbooked on deposits (id)
    where state = 'successful' and custody_transfer_id is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from ledger_accounts where position('@' in asset) > 0`.execute(db);
  // Custody accounts cannot be deleted (the journal refers to them: ledger_rows_kept).
  if ((rows[0]?.n ?? 0) > 0) throw new Error('0037 down: custody accounts exist; they cannot be removed');
  await sql`drop index deposits_custody_unbooked`.execute(db);
  await sql`alter table deposits drop column custody_transfer_id`.execute(db);
  await sql`drop table sweep_transactions`.execute(db);
  await sql`drop table custody_openings`.execute(db);
  await sql`alter table ledger_accounts drop constraint ledger_accounts_chain_asset`.execute(db);
  await sql`alter table ledger_accounts drop constraint ledger_accounts_asset_check`.execute(db);
  await sql`alter table ledger_accounts add constraint ledger_accounts_asset_check
    check (asset ~ '^[A-Z0-9]{2,10}$')`.execute(db);
  await sql`alter table ledger_accounts drop constraint ledger_accounts_kind_check`.execute(db);
  await sql`alter table ledger_accounts add constraint ledger_accounts_kind_check check (kind in (
    'user_available', 'user_locked', 'user_rewards', 'system_hot_wallet', 'system_fees', 'system_liquidity',
    'system_rewards', 'system_external'))`.execute(db);
}
