import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { seedLiquidity } from '../convert/liquidity.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { createExchangeEngine, type ExchangeEngine } from './engine.ts';
import { findOrder } from './repository.ts';
import { fixedPrices, memoryChain, placeOrder } from './test-helpers.ts';

/**
 * Issue 37, item 1: every step of the engine reads a bounded batch; orders that need no action (expired
 * ones inside the late-deposit watch, refunds whose payout failed) must not hide the ones behind them.
 */
const database = useTestDatabase();
let clock = new Date('2030-01-02T03:04:05.000Z');
const now = () => clock;
const prices = fixedPrices({ ETH: 3000n, BNB: 600n, BTC: 60000n, TRX: 1n, DOGE: 1n });
const BATCH = 4;
const IDLE = BATCH * 2 + 1; // more idle rows than one batch (two batches and one)
let chain = memoryChain();
let engine: ExchangeEngine;
let userId: string;
const errors: unknown[] = [];

const setup = () => ({ db: database.db, now, prices, userId });
const state = async (id: string) => (await findOrder(database.db, id))?.state;
const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await engine.tick();
};

describe('exchange engine: fair batches', () => {
  beforeAll(async () => {
    userId = await createUser(database.db);
    await seedLiquidity(database.db, clock, { BNB: '1000', USDT: '100000' });
  });

  function newEngine() {
    chain = memoryChain();
    engine = createExchangeEngine({
      db: database.db,
      now,
      prices,
      deposits: chain.deposits,
      payouts: chain.gateway,
      batchSize: BATCH,
      onError: (err) => errors.push(err),
    });
  }

  it('a new order deposited in time is seen while more expired orders than one batch sit in the late-deposit watch', async () => {
    newEngine();
    const idle = [];
    for (let i = 0; i < IDLE; i++) idle.push(await placeOrder(setup(), 'float'));
    clock = new Date(new Date(idle[0]?.deadlineAt as string).getTime() + 1000);
    await ticks(4); // every idle order expires, and stays inside the 7-day watch
    for (const o of idle) expect(await state(o.id)).toBe('expired');

    clock = new Date(clock.getTime() + 60_000); // the new order is younger than every expiry
    const order = await placeOrder(setup(), 'float');
    chain.deposit(order.depositAddress, 100_000_000n, 6, `0x${'a1'.repeat(32)}`, clock);
    await ticks(3);
    expect(await state(order.id)).toBe('sending');
    expect((await reconcile(database.db)).ok).toBe(true);
  }, 180_000);

  it('refunds whose payout failed are recorded and leave the payouts queue; a later payout completes', async () => {
    newEngine();
    const refunds = [];
    for (let i = 0; i < IDLE; i++) {
      const o = await placeOrder(setup(), 'float');
      chain.deposit(o.depositAddress, 60_000_000_000n, 6, `0x${(i + 16).toString(16).repeat(32)}`, clock); // > max: refunded
      refunds.push(o);
    }
    await ticks(4);
    for (const o of refunds) {
      expect(await findOrder(database.db, o.id)).toMatchObject({
        state: 'refunded',
        state_reason: 'amount_out_of_range',
      });
      chain.fail(`exchange:${o.id}:refund`);
    }
    const order = await placeOrder(setup(), 'float');
    chain.deposit(order.depositAddress, 100_000_000n, 6, `0x${'b2'.repeat(32)}`, clock);
    await ticks(2);
    expect(await state(order.id)).toBe('sending');
    chain.mine(`exchange:${order.id}:payout`, `0x${'c3'.repeat(32)}`);
    await ticks(3);
    expect(await state(order.id)).toBe('completed');
    for (const o of refunds) {
      const row = await findOrder(database.db, o.id);
      expect(row).toMatchObject({ state: 'refunded', payout_tx_hash: null });
      expect(row?.payout_failed_reason).toBe('refund_failed: reverted; to_wallet');
      expect(row?.payout_failed_at).not.toBeNull();
    }
  }, 180_000);

  it('reported no unexpected errors', () => {
    expect(errors).toEqual([]);
  });
});
