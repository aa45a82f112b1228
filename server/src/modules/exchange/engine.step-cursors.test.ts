import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { createExchangeEngine } from './engine.ts';
import { createEngineContext } from './engine-context.ts';
import { findOrder } from './repository.ts';
import { fixedPrices, memoryChain, placeOrder } from './test-helpers.ts';

/**
 * Each engine step walks its own queue (review of issue 37, H1): steps whose candidates overlap (the
 * deposit look-up and the extra-deposit look-up both read expired orders inside the late-deposit watch)
 * must not push each other's rows to the back, and two instances must not take the same batch.
 */
const database = useTestDatabase();
let clock = new Date('2030-01-02T03:04:05.000Z');
const now = () => clock;
const prices = fixedPrices({ ETH: 3000n, BNB: 600n, BTC: 60000n, TRX: 1n, DOGE: 1n });
const BATCH = 4;
const ORDERS = BATCH * 3 + 1; // more than two batches
const PER_USER = 4; // under the unpaid-order cap

async function placeMany(n: number) {
  const orders = [];
  let userId = '';
  for (let i = 0; i < n; i++) {
    if (i % PER_USER === 0) userId = await createUser(database.db);
    orders.push(await placeOrder({ db: database.db, now, prices, userId }, 'float'));
  }
  return orders;
}

describe('exchange engine: one cursor per step', () => {
  it('every expired order in the watch is looked at by the deposit step and the extra-deposit step within a bounded number of ticks', async () => {
    const chain = memoryChain({ transfers: true });
    const errors: unknown[] = [];
    const engine = createExchangeEngine({
      db: database.db,
      now,
      prices,
      deposits: chain.deposits,
      payouts: chain.gateway,
      batchSize: BATCH,
      onError: (err) => errors.push(err),
    });
    const orders = await placeMany(ORDERS);
    clock = new Date(new Date(orders[0]?.deadlineAt as string).getTime() + 1000);
    for (let i = 0; i < Math.ceil(ORDERS / BATCH) + 1; i++) await engine.tick();
    for (const o of orders) expect((await findOrder(database.db, o.id))?.state).toBe('expired');

    for (let round = 0; round < 3; round++) {
      chain.looks.observe.clear();
      chain.looks.transfers.clear();
      // One full turn of each queue: ceil(ORDERS / BATCH) ticks.
      for (let i = 0; i < Math.ceil(ORDERS / BATCH); i++) await engine.tick();
      const missed = orders.filter(
        (o) => !chain.looks.observe.has(o.depositAddress) || !chain.looks.transfers.has(o.depositAddress),
      );
      expect(missed.map((o) => o.id)).toEqual([]);
    }
    expect(errors).toEqual([]);
  }, 180_000);

  it('two instances taking a batch at once take different orders', async () => {
    const make = () =>
      createEngineContext({
        db: database.db,
        now,
        prices,
        deposits: memoryChain().deposits,
        payouts: memoryChain().gateway,
        batchSize: BATCH,
      });
    const [a, b] = [make(), make()];
    const expired = (eb: Parameters<Parameters<typeof a.fairBatch>[1]>[0]) => eb('state', '=', 'expired');
    for (let i = 0; i < 5; i++) {
      const [x, y] = await Promise.all([a.fairBatch('observe', expired), b.fairBatch('observe', expired)]);
      const ids = new Set(x.map((o) => o.id));
      expect(y.filter((o) => ids.has(o.id)).map((o) => o.id)).toEqual([]);
    }
  }, 60_000);
});
