import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { seedLiquidity } from '../convert/liquidity.ts';
import { postTransfer } from '../ledger/post-transfer.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { ensureAccount } from '../ledger/repository.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { createExchangeEngine, type ExchangeEngine } from './engine.ts';
import { findOrder } from './repository.ts';
import { fixedPrices, memoryChain, placeOrder } from './test-helpers.ts';

/** Issue 37, item 5: liquidity convert's lane rebalancing parked in a lane still pays exchange orders. */
const database = useTestDatabase();
const clock = new Date('2030-01-02T03:04:05.000Z');
const now = () => clock;
const prices = fixedPrices({ ETH: 3000n, BNB: 600n });
const chain = memoryChain();
let engine: ExchangeEngine;
let userId: string;
const errors: unknown[] = [];

/** Moves all of lane 0's liquidity of `coin` into lane 1, as convert's rebalancing can. */
async function parkInLane(coin: 'BNB') {
  await database.db.transaction().execute(async (trx) => {
    const main = await ensureAccount(trx, { kind: 'system_liquidity', userId: null, asset: coin });
    const { id: lane } = await trx
      .insertInto('ledger_accounts')
      .values({ kind: 'system_liquidity', user_id: null, asset: coin, lane: 1 } as never)
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirstOrThrow();
    const all = await balanceOf(trx, 'system_liquidity', null, coin);
    await postTransfer(
      trx,
      {
        idempotencyKey: `test:park:${coin}`,
        kind: 'convert',
        legs: [
          { accountId: main, amountMinor: -all },
          { accountId: lane as string, amountMinor: all },
        ],
      },
      clock,
    );
  });
}

describe('exchange engine: liquidity in convert lanes', () => {
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

  it('pays an order when lane 0 is empty and a lane holds the coin (consolidated, not suspended)', async () => {
    await parkInLane('BNB');
    const main = await sql<{ balance: string }>`select balance from ledger_accounts
      where kind = 'system_liquidity' and asset = 'BNB' and lane = 0`.execute(database.db);
    expect(main.rows[0]?.balance).toBe('0');
    const order = await placeOrder({ db: database.db, now, prices, userId }, 'float');
    chain.deposit(order.depositAddress, 100_000_000n, 6, `0x${'e1'.repeat(32)}`, clock);
    await engine.tick();
    expect(await findOrder(database.db, order.id)).toMatchObject({ state: 'sending' });
    expect((await reconcile(database.db)).ok).toBe(true);
    expect(errors).toEqual([]);
  }, 60_000);
});
