import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { seedLiquidity } from '../convert/liquidity.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { createExchangeEngine } from './engine.ts';
import { findOrder } from './repository.ts';
import { fixedPrices, memoryChain, placeOrder } from './test-helpers.ts';

/**
 * Issue 37, item 9: an order's booked deposit that a reorg removed after the payout (the coins were paid
 * out, the deposit is gone) raises an operator alert in the database (chain_alerts, as the wallet's
 * deposit watcher does), once while open; a deposit still on the chain raises none.
 */
const database = useTestDatabase();
const clock = new Date('2030-01-02T03:04:05.000Z');
const now = () => clock;
const prices = fixedPrices({ ETH: 3000n, BNB: 600n, BTC: 60000n, TRX: 1n, DOGE: 1n });

describe('exchange engine: a booked deposit removed by a reorg', () => {
  it('after the payout: one open chain alert for the order; none while the deposit is on the chain', async () => {
    await seedLiquidity(database.db, clock, { BNB: '1000', USDT: '100000' });
    const chain = memoryChain({ transfers: true });
    const engine = createExchangeEngine({
      db: database.db,
      now,
      prices,
      deposits: chain.deposits,
      payouts: chain.gateway,
    });
    const userId = await createUser(database.db);
    const order = await placeOrder({ db: database.db, now, prices, userId }, 'float');
    const hash = `0x${'d7'.repeat(32)}`;
    chain.deposit(order.depositAddress, 100_000_000n, 50, hash, clock, 2);
    const deposit = { coin: 'USDT' as const, txHash: hash, logIndex: 2, amountMinor: 100_000_000n };
    chain.setTransfers(order.depositAddress, [{ ...deposit, confirmations: 50, blockNumber: 100n }]);
    for (let i = 0; i < 4; i++) await engine.tick();
    chain.mine(`exchange:${order.id}:payout`);
    await engine.tick();
    expect((await findOrder(database.db, order.id))?.state).toBe('completed');
    const alerts = () =>
      database.db.selectFrom('chain_alerts').selectAll().where('kind', '=', 'exchange_deposit_reorged').execute();
    expect(await alerts()).toEqual([]);

    // The reorg: the deposit's block is gone and the transfer is not on the new branch.
    chain.setTransfers(order.depositAddress, []);
    await engine.tick();
    await engine.tick();
    const raised = await alerts();
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ network: 'ethereum', dedupe_key: `order:${order.id}`, resolved_at: null });
    expect(raised[0]?.detail).toContain(hash);
    expect((await reconcile(database.db)).ok).toBe(true);
  }, 120_000);
  it('while the order is still exchanging (not paid): the order is suspended, and alerted once', async () => {
    await seedLiquidity(database.db, clock, { BNB: '1000', USDT: '100000' });
    const chain = memoryChain({ transfers: true });
    // No price source: settle cannot pay, so the order waits in `exchanging` after its deposit is booked.
    const engine = createExchangeEngine({
      db: database.db,
      now,
      prices: null,
      deposits: chain.deposits,
      payouts: chain.gateway,
    });
    const userId = await createUser(database.db);
    const order = await placeOrder({ db: database.db, now, prices, userId }, 'float');
    const hash = `0x${'d8'.repeat(32)}`;
    chain.deposit(order.depositAddress, 100_000_000n, 50, hash, clock, 4);
    const deposit = { coin: 'USDT' as const, txHash: hash, logIndex: 4, amountMinor: 100_000_000n };
    chain.setTransfers(order.depositAddress, [{ ...deposit, confirmations: 50, blockNumber: 100n }]);
    for (let i = 0; i < 3; i++) await engine.tick();
    expect((await findOrder(database.db, order.id))?.state).toBe('exchanging');

    chain.setTransfers(order.depositAddress, []);
    await engine.tick();
    await engine.tick();
    expect((await findOrder(database.db, order.id))?.state).toBe('suspended');
    const raised = await database.db
      .selectFrom('chain_alerts')
      .selectAll()
      .where('dedupe_key', '=', `order:${order.id}`)
      .execute();
    expect(raised).toHaveLength(1);
    expect(raised[0]?.detail).toContain('suspended');
    expect((await reconcile(database.db)).ok).toBe(true);
  }, 120_000);
  it('absent from the look-back but still mined (the chain has its receipt): no alert (review of issue 37, LOW 10)', async () => {
    await seedLiquidity(database.db, clock, { BNB: '1000', USDT: '100000' });
    const chain = memoryChain({ transfers: true });
    const asked: string[] = [];
    const engine = createExchangeEngine({
      db: database.db,
      now,
      prices,
      deposits: {
        ...chain.deposits,
        hasReceipt: async ({ txHash }) => {
          asked.push(txHash);
          return true;
        },
      },
      payouts: chain.gateway,
    });
    const userId = await createUser(database.db);
    const order = await placeOrder({ db: database.db, now, prices, userId }, 'float');
    const hash = `0x${'d9'.repeat(32)}`;
    chain.deposit(order.depositAddress, 100_000_000n, 50, hash, clock, 1);
    const deposit = { coin: 'USDT' as const, txHash: hash, logIndex: 1, amountMinor: 100_000_000n };
    chain.setTransfers(order.depositAddress, [{ ...deposit, confirmations: 50, blockNumber: 100n }]);
    for (let i = 0; i < 4; i++) await engine.tick();
    chain.setTransfers(order.depositAddress, []); // older than what transfers() reads back
    await engine.tick();
    expect(asked).toContain(hash);
    expect(
      await database.db.selectFrom('chain_alerts').select('id').where('dedupe_key', '=', `order:${order.id}`).execute(),
    ).toEqual([]);
    expect((await findOrder(database.db, order.id))?.state).not.toBe('suspended');
  }, 120_000);
});
