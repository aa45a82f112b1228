import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { seedLiquidity } from '../convert/liquidity.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { createExchangeEngine } from './engine.ts';
import { findOrder } from './repository.ts';
import { fixedPrices, memoryChain, placeOrder } from './test-helpers.ts';

/**
 * A second transfer of the send coin in the same transaction as the counted deposit (a contract that
 * pays twice, a batch sender) is an extra deposit too: matched by (tx hash, log index), not by the hash
 * alone (review of issue 37, M2).
 */
const database = useTestDatabase();
const clock = new Date('2030-01-02T03:04:05.000Z');
const now = () => clock;
const prices = fixedPrices({ ETH: 3000n, BNB: 600n, BTC: 60000n, TRX: 1n, DOGE: 1n });

describe('exchange engine: an extra transfer in the deposit transaction', () => {
  it('is booked as a late deposit; the counted one is not', async () => {
    await seedLiquidity(database.db, clock, { BNB: '1000', USDT: '100000' });
    const chain = memoryChain({ transfers: true });
    const errors: unknown[] = [];
    const engine = createExchangeEngine({
      db: database.db,
      now,
      prices,
      deposits: chain.deposits,
      payouts: chain.gateway,
      onError: (err) => errors.push(err),
    });
    const userId = await createUser(database.db);
    const order = await placeOrder({ db: database.db, now, prices, userId }, 'float');
    const hash = `0x${'e5'.repeat(32)}`;
    chain.deposit(order.depositAddress, 100_000_000n, 50, hash, clock, 3);
    const transfer = { coin: 'USDT' as const, txHash: hash, confirmations: 50, blockNumber: 100n };
    chain.setTransfers(order.depositAddress, [
      { ...transfer, logIndex: 3, amountMinor: 100_000_000n },
      { ...transfer, logIndex: 5, amountMinor: 7_000_000n },
    ]);
    for (let i = 0; i < 4; i++) await engine.tick();
    expect((await findOrder(database.db, order.id))?.state).toBe('sending');
    const extras = await database.db
      .selectFrom('exchange_extra_deposits')
      .select(['tx_hash', 'log_index', 'amount_minor'])
      .where('order_id', '=', order.id)
      .execute();
    expect(extras).toEqual([{ tx_hash: hash, log_index: 5, amount_minor: '7000000' }]);
    expect((await reconcile(database.db)).ok).toBe(true);
    expect(errors).toEqual([]);
  }, 120_000);

  it('mined again at other log indexes (a reorg), the transaction books nothing twice', async () => {
    const chain = memoryChain({ transfers: true });
    // The first test's order is in the database too (its transfers are not on this chain): its errors are not this one's.
    const errors: [unknown, string | undefined][] = [];
    const engine = createExchangeEngine({
      db: database.db,
      now,
      prices,
      deposits: chain.deposits,
      payouts: chain.gateway,
      onError: (err, orderId) => errors.push([err, orderId]),
    });
    const userId = await createUser(database.db);
    const order = await placeOrder({ db: database.db, now, prices, userId }, 'float');
    const hash = `0x${'e6'.repeat(32)}`;
    chain.deposit(order.depositAddress, 100_000_000n, 50, hash, clock, 3);
    const transfer = { coin: 'USDT' as const, txHash: hash, confirmations: 50, blockNumber: 100n };
    const logs = (deposit: number, extras: [number, number], dust: number) => [
      { ...transfer, logIndex: dust, amountMinor: 0n }, // dust below the ledger's unit: no place of its own
      { ...transfer, logIndex: deposit, amountMinor: 100_000_000n },
      { ...transfer, logIndex: extras[0], amountMinor: 7_000_000n },
      { ...transfer, logIndex: extras[1], amountMinor: 2_000_000n },
    ];
    chain.setTransfers(order.depositAddress, logs(3, [5, 9], 8));
    for (let i = 0; i < 4; i++) await engine.tick();
    // The reorg: one block later, other transactions first, every index moved; the dust now comes first.
    chain.deposit(order.depositAddress, 100_000_000n, 49, hash, clock, 13);
    chain.setTransfers(
      order.depositAddress,
      logs(13, [15, 19], 1).map((t) => ({ ...t, blockNumber: 101n })),
    );
    for (let i = 0; i < 4; i++) await engine.tick();
    const extras = await database.db
      .selectFrom('exchange_extra_deposits')
      .select(['log_index', 'tx_position', 'amount_minor'])
      .where('order_id', '=', order.id)
      .orderBy('id')
      .execute();
    expect(extras).toEqual([
      { log_index: 5, tx_position: 1, amount_minor: '7000000' },
      { log_index: 9, tx_position: 2, amount_minor: '2000000' },
    ]);
    expect((await findOrder(database.db, order.id))?.deposit_log_index).toBe(13);
    expect((await reconcile(database.db)).ok).toBe(true);
    expect(errors.filter(([, id]) => id === order.id)).toEqual([]);
  }, 120_000);
});
