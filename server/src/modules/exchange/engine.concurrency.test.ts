import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { seedLiquidity } from '../convert/liquidity.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { createExchangeEngine } from './engine.ts';
import { withdrawalPayouts } from './payouts.ts';
import { findOrder } from './repository.ts';
import { EVM_ADDRESS_A, EVM_ADDRESS_B, fixedPrices, memoryChain, testXpubs } from './test-helpers.ts';

/** Several engines ticking at once (two servers, or a slow tick overlapping the next): each order pays out once. */
const database = useTestDatabase();
const clock = new Date('2030-01-02T03:04:05.000Z');
const now = () => clock;
const prices = fixedPrices({ BNB: 600n });
const chain = memoryChain();
const ORDERS = 8;
const ENGINES = 4;

describe('exchange engines running concurrently', () => {
  let userId: string;
  beforeAll(async () => {
    userId = await createUser(database.db);
    await seedLiquidity(database.db, clock, { BNB: '1000' });
  });

  it(`${ENGINES} engines over ${ORDERS} orders: one payout, one ledger leg each, books reconcile`, async () => {
    const app = buildTestApp({ db: database.db, now, exchange: { prices, xpubs: testXpubs } });
    const ids: string[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/exchange/orders',
        headers: { [TEST_USER_HEADER]: userId },
        payload: {
          sendCoin: 'USDT',
          sendNetwork: 'ethereum',
          receiveCoin: 'BNB',
          receiveNetwork: 'bsc',
          amountMinor: '100000000',
          rateType: 'float',
          receiveAddress: EVM_ADDRESS_A,
          refundAddress: EVM_ADDRESS_B,
          termsAccepted: true,
        },
      });
      const order = res.json() as { id: string; depositAddress: string };
      ids.push(order.id);
      chain.deposit(order.depositAddress, 100_000_000n, 6, `0x${(i + 1).toString(16).padStart(64, '0')}`);
    }
    await app.close();

    const errors: unknown[] = [];
    const engines = Array.from({ length: ENGINES }, () =>
      createExchangeEngine({
        db: database.db,
        now,
        prices,
        deposits: chain.deposits,
        payouts: withdrawalPayouts(database.db, now),
        onError: (err) => errors.push(err),
      }),
    );
    for (let round = 0; round < 3; round++) await Promise.all(engines.map((e) => e.tick()));

    for (const id of ids) expect((await findOrder(database.db, id))?.state).toBe('sending');
    const { rows: payouts } = await sql<{ n: string }>`
      select count(*)::text as n from withdrawals where idempotency_key like 'exchange:%:payout'`.execute(database.db);
    expect(Number(payouts[0]?.n)).toBe(ORDERS);
    const { rows: legs } = await sql<{ kind: string; n: string }>`
      select split_part(idempotency_key, ':', 3) as kind, count(*)::text as n from ledger_transfers
      where kind = 'exchange' group by 1 order by 1`.execute(database.db);
    expect(legs).toEqual([
      { kind: 'in', n: String(ORDERS) },
      { kind: 'out', n: String(ORDERS) },
    ]);
    // Each order went through each state once: no transition was taken twice.
    const { rows: repeats } = await sql<{ n: string }>`
      select count(*)::text as n from (
        select order_id, to_state from exchange_order_events group by 1, 2 having count(*) > 1) t`.execute(database.db);
    expect(Number(repeats[0]?.n)).toBe(0);
    expect((await reconcile(database.db)).ok).toBe(true);
    // Losers of a race find the order already moved and stand aside quietly.
    expect(errors).toEqual([]);
  }, 60_000);
});
