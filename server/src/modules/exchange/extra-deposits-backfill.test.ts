import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigrator, migrateToLatest } from '../../db/migrate.ts';
import { createUser } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { insertBareOrder } from './test-helpers.ts';

/**
 * Migration 0072 keys extra deposits by their place in their transaction: rows booked before it get that
 * place from their log indexes, one up after the order's counted deposit in the same transaction and coin.
 */
describe('migration 0072: extra deposits keyed by their place in the transaction', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.destroy());

  it('backfills the place of rows booked before it, and refuses the same place twice', async () => {
    const db = database.db;
    const { error } = await createMigrator(db).migrateTo('0071-login-history');
    expect(error).toBeUndefined();
    const userId = await createUser(db);
    const orderId = await insertBareOrder(db, userId, new Date()); // USDT on ethereum, deposit tx 0x11..
    const depositTx = `0x${'11'.repeat(32)}`;
    const rows: [string, string, number][] = [
      [depositTx, 'USDT', 9], // after the counted deposit and the one at 5: third in its transaction
      [depositTx, 'USDT', 5],
      [depositTx, 'USDC', 7], // another coin: its own first
      [`0x${'33'.repeat(32)}`, 'USDT', 4],
      [`0x${'33'.repeat(32)}`, 'USDT', 2],
      [`0x${'44'.repeat(32)}`, 'ETH', -1], // native
    ];
    for (const [hash, coin, logIndex] of rows)
      await sql`insert into exchange_extra_deposits (order_id, network, coin, tx_hash, log_index, amount_minor,
        block_number, outcome, created_at)
        values (${orderId}, 'ethereum', ${coin}, ${hash}, ${logIndex}, 1, 1, 'to_wallet', now())`.execute(db);

    await migrateToLatest(db);
    const placed = await db
      .selectFrom('exchange_extra_deposits')
      .select(['tx_hash', 'coin', 'log_index', 'tx_position'])
      .orderBy('id')
      .execute();
    expect(placed.map((r) => [r.tx_hash.slice(0, 4), r.coin, r.log_index, r.tx_position])).toEqual([
      ['0x11', 'USDT', 9, 2],
      ['0x11', 'USDT', 5, 1],
      ['0x11', 'USDC', 7, 0],
      ['0x33', 'USDT', 4, 1],
      ['0x33', 'USDT', 2, 0],
      ['0x44', 'ETH', -1, 0],
    ]);
    // The same transfer seen at another log index (a reorg): its place is taken.
    await expect(
      sql`insert into exchange_extra_deposits (order_id, network, coin, tx_hash, log_index, tx_position,
        amount_minor, block_number, outcome, created_at)
        values (${orderId}, 'ethereum', 'USDT', ${depositTx}, 40, 1, 1, 2, 'to_wallet', now())`.execute(db),
    ).rejects.toThrow(/exchange_extra_deposits_transfer/);
  });
});
