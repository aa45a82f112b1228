import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { seedLiquidity } from '../convert/liquidity.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { createExchangeEngine, type ExchangeEngine } from './engine.ts';
import { EXPIRY_WALL_CLOCK_MARGIN_MS } from './pricing.ts';
import { findOrder, listEvents } from './repository.ts';
import { fixedPrices, memoryChain, placeOrder } from './test-helpers.ts';

/**
 * Issue 37, item 3: an order expires by the chain's clock (the head the watcher has read), and a deposit
 * mined before the deadline is the order's deposit even when it is seen after the expiry.
 */
const database = useTestDatabase();
let clock = new Date('2030-01-02T03:04:05.000Z');
const now = () => clock;
const prices = fixedPrices({ ETH: 3000n, BNB: 600n, BTC: 60000n, TRX: 1n, DOGE: 1n });
const chain = memoryChain();
let engine: ExchangeEngine;
let userId: string;
const errors: unknown[] = [];

const setup = () => ({ db: database.db, now, prices, userId });
const at = (base: string | null, offsetMs: number) => new Date(new Date(base as string).getTime() + offsetMs);

describe('exchange engine: deadlines by the chain', () => {
  beforeAll(async () => {
    userId = await createUser(database.db);
    await seedLiquidity(database.db, clock, { BNB: '1000', USDT: '100000' });
    engine = createExchangeEngine({
      db: database.db,
      now,
      prices,
      deposits: chain.deposits,
      payouts: chain.gateway,
      onError: (err) => errors.push(err),
    });
  });

  it('fixed: a deposit at deadline minus 5 s is paid at the locked rate although the watcher was behind at the deadline', async () => {
    const order = await placeOrder(setup(), 'fixed');
    // The wall clock is 20 minutes past the deadline (inside EXPIRY_WALL_CLOCK_MARGIN_MS: the head decides).
    clock = at(order.deadlineAt, 20 * 60_000);
    chain.setHead(at(order.deadlineAt, -60_000)); // the watcher has read the chain up to a minute before it
    await engine.tick();
    expect((await findOrder(database.db, order.id))?.state).toBe('waiting');

    chain.deposit(order.depositAddress, 100_000_000n, 6, `0x${'d1'.repeat(32)}`, at(order.deadlineAt, -5000));
    chain.setHead(at(order.deadlineAt, 600_000));
    await engine.tick();
    const row = await findOrder(database.db, order.id);
    expect(row).toMatchObject({ state: 'sending', receive_amount_minor: order.estimatedReceiveMinor });
    chain.setHead(undefined);
  });

  it('a failed look-up or an unknown head never expires an order', async () => {
    const order = await placeOrder(setup(), 'fixed');
    clock = at(order.deadlineAt, 60_000);
    chain.failLookups(order.depositAddress);
    await engine.tick();
    expect((await findOrder(database.db, order.id))?.state).toBe('waiting');
    chain.failLookups(order.depositAddress, false);
    chain.setHead(null);
    await engine.tick();
    expect((await findOrder(database.db, order.id))?.state).toBe('waiting');
    chain.setHead(undefined);
    await engine.tick();
    expect((await findOrder(database.db, order.id))?.state).toBe('expired');
    errors.length = 0; // the failed look-up was reported, as it should be
  });

  it('a network whose head is never known (no runtime) expires its orders by the wall clock plus a margin (review M8)', async () => {
    const order = await placeOrder(setup(), 'fixed');
    chain.setHead(null);
    clock = at(order.deadlineAt, 60_000);
    await engine.tick();
    expect((await findOrder(database.db, order.id))?.state).toBe('waiting'); // within the margin
    clock = at(order.deadlineAt, EXPIRY_WALL_CLOCK_MARGIN_MS + 1000);
    await engine.tick();
    expect((await findOrder(database.db, order.id))?.state).toBe('expired');
    chain.setHead(undefined);
    errors.length = 0;
  });

  it('fixed: expired before its in-time deposit was read, the order takes it (expired -> confirming), no late refund', async () => {
    const order = await placeOrder(setup(), 'fixed');
    clock = at(order.deadlineAt, 1000);
    await engine.tick(); // nothing seen (the deposit's log not yet indexed by the node, say): expired
    expect((await findOrder(database.db, order.id))?.state).toBe('expired');

    chain.deposit(order.depositAddress, 100_000_000n, 6, `0x${'d2'.repeat(32)}`, at(order.deadlineAt, -3000));
    clock = at(order.deadlineAt, 120_000);
    await engine.tick();
    expect(await findOrder(database.db, order.id)).toMatchObject({
      state: 'sending',
      receive_amount_minor: order.estimatedReceiveMinor,
    });
    const events = await listEvents(database.db, order.id);
    expect(events.map((e) => e.to_state)).toEqual(['new', 'waiting', 'expired', 'confirming', 'exchanging', 'sending']);
    expect(events.find((e) => e.to_state === 'confirming')?.reason).toBe('deposit_in_time');
    expect((await reconcile(database.db)).ok).toBe(true);
  });

  it('a deposit mined after the deadline is still late and refunded', async () => {
    const order = await placeOrder(setup(), 'fixed');
    clock = at(order.deadlineAt, 1000);
    await engine.tick();
    chain.deposit(order.depositAddress, 100_000_000n, 6, `0x${'d3'.repeat(32)}`, at(order.deadlineAt, 500));
    await engine.tick();
    expect(await findOrder(database.db, order.id)).toMatchObject({ state: 'refunded', state_reason: 'late_deposit' });
  });

  it('reported no unexpected errors', () => {
    expect(errors).toEqual([]);
  });
});
