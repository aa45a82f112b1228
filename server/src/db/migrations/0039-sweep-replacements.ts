import { type Kysely, sql } from 'kysely';

/**
 * Fee-bumped replacements of a stuck gas top-up or sweep (issue 15), as withdrawals have had since
 * signer_transactions: the same nonce, a higher `gasPrice`, signed and recorded BEFORE it is broadcast.
 *
 * - `sweep_transactions` stays the one row per top-up or sweep (its first signing: `tx_hash`, `raw_tx`);
 *   `broadcast_at` is when a node first took those bytes (the replacement timer starts there, not at
 *   signing, so a signer that was down rebroadcasts before it bumps); `mined_tx_hash` names the attempt
 *   that was mined, and `chain_amount` / `gas_price_wei` become that attempt's when it is settled.
 * - `sweep_attempts`: the replacements, attempt 1, 2, ... of a row. A native sweep pays its own gas, so a
 *   replacement may send less (`chain_amount`): the balance must cover value + gas x the new price.
 *   Their hashes are ours as much as the first one's: the deposit watchers never credit them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sweep_transactions
    add column broadcast_at timestamptz,
    add column mined_tx_hash text`.execute(db);
  // Rows broadcast before this migration: their timer starts at their last broadcast.
  await sql`update sweep_transactions set broadcast_at = updated_at
    where state = 'signed' and broadcast_count > 0 and last_error is null`.execute(db);
  await sql`
    create table sweep_attempts (
      id bigserial primary key,
      sweep_id bigint not null references sweep_transactions (id),
      attempt integer not null check (attempt >= 1),
      chain_amount numeric(78, 0) not null check (chain_amount > 0),
      gas_price_wei numeric(78, 0) not null check (gas_price_wei > 0),
      tx_hash text not null unique,
      raw_tx text not null,
      broadcast_count integer not null default 0,
      last_error text,
      broadcast_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (sweep_id, attempt)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table sweep_attempts`.execute(db);
  await sql`alter table sweep_transactions drop column mined_tx_hash, drop column broadcast_at`.execute(db);
}
