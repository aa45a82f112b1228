import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { createEngineContext } from './engine-context.ts';
import { IllegalTransitionError } from './errors.ts';
import { findOrder } from './repository.ts';
import { fixedPrices, insertBareOrder, memoryChain } from './test-helpers.ts';
import { transitionOrder } from './transition.ts';

/** Issue 37, item 8: a lost race is quiet, an illegal transition is a defect and reported (the engine alerts). */
const database = useTestDatabase();
const now = () => new Date('2030-01-02T03:04:05.000Z');

describe('exchange engine step', () => {
  it('reports an illegal transition; a lost race (the order moved first) stays quiet', async () => {
    const chain = memoryChain();
    const reported: unknown[] = [];
    const ctx = createEngineContext({
      db: database.db,
      now,
      prices: fixedPrices({}),
      deposits: chain.deposits,
      payouts: chain.gateway,
      onError: (err) => reported.push(err),
    });
    const id = await insertBareOrder(database.db, await createUser(database.db), now());
    const order = await findOrder(database.db, id);
    if (!order) throw new Error('no order');
    await database.db.transaction().execute((trx) => transitionOrder(trx, id, 'waiting', { now: now() }));

    // Raced: the step read 'new', another worker moved it to 'waiting'.
    const raced = await ctx.step(order, async (trx) => {
      await transitionOrder(trx, id, 'waiting', { now: now(), expectFrom: 'new' });
    });
    expect(raced).toBe(false);
    expect(reported).toEqual([]);

    // A defect: waiting -> completed is not in the table.
    const illegal = await ctx.step(order, async (trx) => {
      await transitionOrder(trx, id, 'completed', { now: now(), expectFrom: 'waiting' });
    });
    expect(illegal).toBe(false);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toBeInstanceOf(IllegalTransitionError);
    expect((reported[0] as IllegalTransitionError).raced).toBe(false);
  });
});
