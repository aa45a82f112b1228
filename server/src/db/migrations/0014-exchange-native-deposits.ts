import { type Kysely, sql } from 'kysely';

/**
 * Native-coin deposits to exchange order addresses (modules/exchange, evm-native-deposits.ts).
 *
 * - exchange_deposit_cursors: the last block the order scanner has fully read per EVM network
 *   (number + hash), so a restart resumes there and a hash mismatch reveals a reorg. Separate from
 *   the wallet's chain_cursors: the two scanners look for different addresses and move independently.
 * - exchange_native_deposits: one row per successful native transfer (ETH, BNB) to an order's deposit
 *   address, keyed by (network, tx_hash); `block_hash` lets a reader drop a row the chain no longer has.
 *   `chain_amount` is in wei (NUMERIC(78,0)).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const network = sql`network in ('ethereum', 'bsc')`;

  await db.schema
    .createTable('exchange_deposit_cursors')
    .addColumn('network', 'text', (c) => c.primaryKey().check(network))
    .addColumn('block_number', 'bigint', (c) => c.notNull().check(sql`block_number >= 0`))
    .addColumn('block_hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('exchange_native_deposits')
    .addColumn('network', 'text', (c) => c.notNull().check(network))
    .addColumn('tx_hash', 'text', (c) => c.notNull().check(sql`tx_hash ~ '^0x[0-9a-f]{64}$'`))
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('chain_amount', sql`numeric(78,0)`, (c) => c.notNull().check(sql`chain_amount > 0`))
    .addColumn('block_number', 'bigint', (c) => c.notNull().check(sql`block_number >= 0`))
    .addColumn('block_hash', 'text', (c) => c.notNull())
    .addColumn('tx_index', 'integer', (c) => c.notNull().check(sql`tx_index >= 0`))
    .addColumn('block_time', 'timestamptz', (c) => c.notNull())
    .addColumn('seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('exchange_native_deposits_pk', ['network', 'tx_hash'])
    .execute();

  await db.schema
    .createIndex('exchange_native_deposits_address_idx')
    .on('exchange_native_deposits')
    .columns(['network', 'to_address', 'block_number'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('exchange_native_deposits').execute();
  await db.schema.dropTable('exchange_deposit_cursors').execute();
}
