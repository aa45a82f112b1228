import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import { ORDER_BRANCH } from '../exchange/deposit-address.ts';
import { type ExchangeState, exchangeStates } from '../exchange/states.ts';
import { insertBareOrder, pathTo } from '../exchange/test-helpers.ts';
import { transitionOrder } from '../exchange/transition.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { bookOrderCustody, orderExtraKey, orderInKey } from './order-custody.ts';
import { bookedNativeOf, derivationIndexOf, sweepCandidates } from './sweeps-repository.ts';

/**
 * Which exchange order addresses the sweeper takes (issue 37, item 2): one with booked coins in every
 * state; only orders that no longer wait on their address are listed, with their branch-2 key.
 */
const database = useTestDatabase();
const minimums = new Map<CoinCode, bigint>([
  ['ETH', 10n ** 15n],
  ['USDT', 1000n],
]);

async function orderWithCoins(state: ExchangeState, index: number, lateDepositSeen = false) {
  const db = database.db;
  const id = await insertBareOrder(db, await createUser(db), new Date());
  const address = `0x${(0xabc000 + index).toString(16).padStart(40, '0')}`;
  await db
    .updateTable('exchange_orders')
    // An expired order has a deposit hash only when a late deposit was seen (its confirmations still counted).
    .set({
      deposit_address: address,
      deposit_index: index,
      ...(state === 'expired' && !lateDepositSeen ? { deposit_tx_hash: null } : {}),
    })
    .where('id', '=', id)
    .execute();
  await db.transaction().execute(async (trx) => {
    for (const to of pathTo(state)) await transitionOrder(trx, id, to, { now: new Date(), reason: 'test walk' });
    const coins = { orderId: id, network: 'ethereum', address, coin: 'USDT', amountMinor: 5_000_000n } as const;
    await bookOrderCustody(trx, { ...coins, key: orderInKey(id) }, new Date());
    await bookOrderCustody(
      trx,
      { ...coins, coin: 'ETH', amountMinor: 2n * 10n ** 15n, key: orderExtraKey(id) },
      new Date(),
    );
  });
  return address;
}

describe('sweep candidates among exchange order addresses', () => {
  it('lists an order address only once its order no longer waits on it', async () => {
    const db = database.db;
    const before = await balanceOf(db, 'system_deposit_addresses', null, 'USDT@ethereum');
    const byState = new Map<string, string>();
    let index = 1;
    for (const state of exchangeStates) byState.set(state, await orderWithCoins(state, index++));
    // Expired with a late deposit seen and not yet confirmed: that deposit is still being looked at.
    const confirmingLate = await orderWithCoins('expired', index++, true);
    const listed = await sweepCandidates(db, 'ethereum', minimums, 100);
    const states = [...byState].filter(([, a]) => listed.some((c) => c.address === a)).map(([s]) => s);
    expect(states.sort()).toEqual(['completed', 'expired', 'failed', 'refunded']);
    expect(listed.some((c) => c.address === confirmingLate)).toBe(false);
    for (const c of listed) expect(c.branch).toBe(ORDER_BRANCH);
    const completed = byState.get('completed') as string;
    expect(listed.filter((c) => c.address === completed).map((c) => [c.coin, c.unsweptChainAmount])).toEqual(
      expect.arrayContaining([
        ['USDT', 5_000_000n],
        ['ETH', 2n * 10n ** 15n],
      ]),
    );
    expect(await derivationIndexOf(db, 'ethereum', completed)).toMatchObject({ branch: ORDER_BRANCH });
    expect(await bookedNativeOf(db, 'ethereum', completed)).toBe(2n * 10n ** 15n);
    // Eleven orders, each booked once into the deposit addresses' custody account; the ledger balances.
    expect(await balanceOf(db, 'system_deposit_addresses', null, 'USDT@ethereum')).toBe(before + 11n * 5_000_000n);
    expect((await reconcile(db)).ok).toBe(true);
  });
});
