import { describe, expect, it } from 'vitest';
import { buildTestApp, createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { seedLiquidity } from '../convert/liquidity.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { createExchangeEngine } from './engine.ts';
import { fixedPrices, memoryChain, placeOrder, testXpubs } from './test-helpers.ts';

/**
 * Issue 37, item 9: a refund whose transaction failed (reverted, or the signer gave up) put the amount
 * in the user's wallet balance. The API says so (`refundFailedAt`, `refundedTo: 'wallet'`) instead of a
 * `refunded` order with no hash and the refund address, as if the coins were still on their way there.
 */
const database = useTestDatabase();
const clock = new Date('2030-01-02T03:04:05.000Z');
const now = () => clock;
const prices = fixedPrices({ ETH: 3000n, BNB: 600n, BTC: 60000n, TRX: 1n, DOGE: 1n });

describe('exchange API: a failed refund', () => {
  it('is shown as refunded to the wallet balance, with when it failed; a mined refund as sent to the address', async () => {
    await seedLiquidity(database.db, clock, { BNB: '1000', USDT: '100000' });
    const chain = memoryChain();
    const engine = createExchangeEngine({
      db: database.db,
      now,
      prices,
      deposits: chain.deposits,
      payouts: chain.gateway,
    });
    const app = buildTestApp({ db: database.db, now, exchange: { prices, xpubs: testXpubs } });
    const userId = await createUser(database.db);
    const headers = { [TEST_USER_HEADER]: userId };
    const get = async (id: string) =>
      (await app.inject({ method: 'GET', url: `/api/exchange/orders/${id}`, headers })).json();

    const failing = await placeOrder({ db: database.db, now, prices, userId }, 'float');
    const mined = await placeOrder({ db: database.db, now, prices, userId }, 'float');
    // 8 USDT: below the 10 USD minimum, so both are refunded to the refund address (less the 5 USDT fee).
    chain.deposit(failing.depositAddress, 8_000_000n, 50, `0x${'f1'.repeat(32)}`);
    chain.deposit(mined.depositAddress, 8_000_000n, 50, `0x${'f2'.repeat(32)}`);
    for (let i = 0; i < 3; i++) await engine.tick();
    expect(await get(failing.id)).toMatchObject({ status: 'refunded', refundedTo: 'address', refundFailedAt: null });

    chain.fail(`exchange:${failing.id}:refund`);
    chain.mine(`exchange:${mined.id}:refund`, `0x${'f3'.repeat(32)}`);
    await engine.tick();
    const failed = await get(failing.id);
    expect(failed).toMatchObject({ status: 'refunded', payoutTxHash: null, refundedTo: 'wallet' });
    expect(failed.refundFailedAt).toBe(clock.toISOString());
    expect(await get(mined.id)).toMatchObject({
      status: 'refunded',
      payoutTxHash: `0x${'f3'.repeat(32)}`,
      refundedTo: 'address',
      refundFailedAt: null,
    });
    expect((await reconcile(database.db)).ok).toBe(true);
    await app.close();
  }, 120_000);
});
