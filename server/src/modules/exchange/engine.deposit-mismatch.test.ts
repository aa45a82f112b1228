import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { createExchangeEngine } from './engine.ts';
import { DepositMismatchError } from './errors.ts';
import { findOrder } from './repository.ts';
import { fixedPrices, memoryChain, placeOrder } from './test-helpers.ts';

/**
 * An order whose recorded deposit is no longer the one the chain shows (a dust transfer recorded before,
 * a reorg that replaced it) cannot move on: the engine must say so loudly every time it looks, never
 * skip it silently (review of issue 37, M4).
 */
const database = useTestDatabase();
const clock = new Date('2030-01-02T03:04:05.000Z');
const now = () => clock;
const prices = fixedPrices({ ETH: 3000n, BNB: 600n, BTC: 60000n, TRX: 1n, DOGE: 1n });

describe('exchange engine: recorded deposit differs from the observed one', () => {
  it('reports a DepositMismatchError for the order (the module logs it as an ALERT) and changes nothing', async () => {
    const chain = memoryChain();
    const errors: { err: unknown; orderId?: string }[] = [];
    const engine = createExchangeEngine({
      db: database.db,
      now,
      prices,
      deposits: chain.deposits,
      payouts: chain.gateway,
      onError: (err, orderId) => errors.push({ err, orderId }),
    });
    const userId = await createUser(database.db);
    const order = await placeOrder({ db: database.db, now, prices, userId }, 'float');
    const recorded = `0x${'a1'.repeat(32)}`;
    chain.deposit(order.depositAddress, 100_000_000n, 0, recorded, clock); // seen, not yet confirmed
    await engine.tick();
    expect(await findOrder(database.db, order.id)).toMatchObject({ state: 'confirming', deposit_tx_hash: recorded });
    expect(errors).toEqual([]);

    const other = `0x${'b2'.repeat(32)}`;
    chain.deposit(order.depositAddress, 100_000_000n, 50, other, clock); // a reorg replaced it
    await engine.tick();
    expect(errors).toHaveLength(1);
    const [first] = errors;
    expect(first?.orderId).toBe(order.id);
    expect(first?.err).toBeInstanceOf(DepositMismatchError);
    expect(first?.err).toMatchObject({ recordedTxHash: recorded, observedTxHash: other });
    expect(await findOrder(database.db, order.id)).toMatchObject({ state: 'confirming', deposit_tx_hash: recorded });
  }, 120_000);
});
