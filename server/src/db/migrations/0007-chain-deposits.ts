import { type Kysely, sql } from 'kysely';

/**
 * Chain deposits (modules/chain, modules/deposits).
 *
 * - deposit_addresses: one address per (user, network), derived from the network's xpub at
 *   `derivation_index`; an address is never reused (unique address, unique index per network).
 * - deposit_address_counters: the next derivation index per network (allocated under a row lock).
 * - chain_cursors: the last block each watcher has fully scanned (number + hash), so a restart
 *   resumes there and a hash mismatch reveals a reorg.
 * - chain_blocks: recent scanned block hashes per network, to find the fork point of a reorg.
 * - deposits: one row per on-chain credit to a deposit address, keyed by (network, tx_hash,
 *   output_index) where output_index is the log index of an ERC-20/TRC-20 Transfer, the vout of a
 *   UTXO output, or -1 for an EVM/TRON native transfer. Amounts NUMERIC(78,0):
 *   `chain_amount` in the chain's unit, `amount_minor` in the ledger's minor unit (floor of the
 *   chain amount; `chain_amount` keeps the exact value).
 * - deposit_confirm_clicks: "I have transferred" clicks; unmatched ones are limited per UTC day.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const network = sql`network in ('bitcoin', 'ethereum', 'bsc', 'tron', 'dogecoin')`;

  await db.schema
    .createTable('deposit_addresses')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('network', 'text', (c) => c.notNull().check(network))
    .addColumn('address', 'text', (c) => c.notNull().unique().check(sql`length(address) between 20 and 100`))
    .addColumn('derivation_index', 'integer', (c) => c.notNull().check(sql`derivation_index >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('deposit_addresses_user_network', ['user_id', 'network'])
    .addUniqueConstraint('deposit_addresses_network_index', ['network', 'derivation_index'])
    .execute();

  await db.schema
    .createTable('deposit_address_counters')
    .addColumn('network', 'text', (c) => c.primaryKey().check(network))
    .addColumn('next_index', 'integer', (c) => c.notNull().check(sql`next_index >= 0`))
    .execute();

  await db.schema
    .createTable('chain_cursors')
    .addColumn('network', 'text', (c) => c.primaryKey().check(network))
    .addColumn('block_number', 'bigint', (c) => c.notNull().check(sql`block_number >= 0`))
    .addColumn('block_hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('chain_blocks')
    .addColumn('network', 'text', (c) => c.notNull().check(network))
    .addColumn('block_number', 'bigint', (c) => c.notNull().check(sql`block_number >= 0`))
    .addColumn('block_hash', 'text', (c) => c.notNull())
    .addColumn('parent_hash', 'text')
    .addPrimaryKeyConstraint('chain_blocks_pk', ['network', 'block_number'])
    .execute();

  await db.schema
    .createTable('deposits')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('network', 'text', (c) => c.notNull().check(network))
    .addColumn('coin', 'text', (c) => c.notNull().check(sql`coin ~ '^[A-Z0-9]{2,10}$'`))
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('output_index', 'integer', (c) => c.notNull().check(sql`output_index >= -1`))
    .addColumn('from_address', 'text')
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('chain_amount', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`chain_amount > 0`))
    .addColumn('amount_minor', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`amount_minor >= 0`))
    .addColumn('block_number', 'bigint', (c) => c.notNull())
    .addColumn('block_hash', 'text', (c) => c.notNull())
    .addColumn('confirmations', 'integer', (c) => c.notNull().defaultTo(0).check(sql`confirmations >= 0`))
    .addColumn('required_confirmations', 'integer', (c) => c.notNull().check(sql`required_confirmations >= 1`))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('confirming', 'successful', 'failed')`))
    .addColumn('reason', 'text')
    .addColumn('credited_transfer_id', 'bigint', (c) => c.references('ledger_transfers.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .addUniqueConstraint('deposits_network_tx_output', ['network', 'tx_hash', 'output_index'])
    // Successful <=> credited; a failed deposit says why.
    .addCheckConstraint(
      'deposits_successful_is_credited',
      sql`(state = 'successful') = (credited_transfer_id is not null)`,
    )
    .addCheckConstraint('deposits_failed_has_reason', sql`state <> 'failed' or reason is not null`)
    .execute();
  await db.schema
    .createIndex('deposits_user_created_idx')
    .on('deposits')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  // The watchers look at the unfinished deposits of their network on every tick.
  await sql`create index deposits_confirming_idx on deposits (network, block_number) where state = 'confirming'`.execute(
    db,
  );

  await db.schema
    .createTable('deposit_confirm_clicks')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('coin', 'text', (c) => c.notNull())
    .addColumn('network', 'text', (c) => c.notNull().check(network))
    .addColumn('utc_day', 'date', (c) => c.notNull())
    .addColumn('matched_deposit_id', 'uuid', (c) => c.references('deposits.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('deposit_confirm_clicks_user_day_idx')
    .on('deposit_confirm_clicks')
    .columns(['user_id', 'utc_day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('deposit_confirm_clicks').execute();
  await db.schema.dropTable('deposits').execute();
  await db.schema.dropTable('chain_blocks').execute();
  await db.schema.dropTable('chain_cursors').execute();
  await db.schema.dropTable('deposit_address_counters').execute();
  await db.schema.dropTable('deposit_addresses').execute();
}
