import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { buildTestApp, createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { seedLiquidity } from '../convert/liquidity.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { markTransferFailed, markTransferInProgress, markTransferSuccessful } from '../withdrawals/moves.ts';
import { findWithdrawal } from '../withdrawals/repository.ts';
import { createExchangeEngine, type ExchangeEngine } from './engine.ts';
import { withdrawalPayouts } from './payouts.ts';
import { findOrder } from './repository.ts';
import { EVM_ADDRESS_A, EVM_ADDRESS_B, fixedPrices, memoryChain, testXpubs } from './test-helpers.ts';

/**
 * Payouts as approved withdrawals, moved by the withdrawals module's own signer steps
 * (markTransferInProgress / Successful / Failed, what the signer process calls on chain events).
 */
const database = useTestDatabase();
const clock = new Date('2030-01-02T03:04:05.000Z');
const now = () => clock;
const prices = fixedPrices({ BNB: 600n });
const chain = memoryChain();
let engine: ExchangeEngine;
let userId: string;

// One app places every order of the file (an app per order cost ~0.5 s of CPU each to build).
let shared: App | undefined;
afterAll(() => shared?.close());

async function orderWithConfirmedDeposit(txByte: string) {
  shared ??= buildTestApp({ db: database.db, now, exchange: { prices, xpubs: testXpubs } });
  const res = await shared.inject({
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
  chain.deposit(order.depositAddress, 100_000_000n, 6, `0x${txByte.repeat(32)}`);
  await engine.tick();
  const row = await findOrder(database.db, order.id);
  expect(row?.state).toBe('sending');
  return row as NonNullable<typeof row>;
}

describe('exchange payouts through the withdrawal signer path', () => {
  beforeAll(async () => {
    userId = await createUser(database.db);
    await seedLiquidity(database.db, clock, { BNB: '1000' });
    engine = createExchangeEngine({
      db: database.db,
      now,
      prices,
      deposits: chain.deposits,
      payouts: withdrawalPayouts(database.db, now),
    });
  });

  it('an approved withdrawal carries the payout; when mined the order completes with its hash and the books close', async () => {
    const order = await orderWithConfirmedDeposit('21');
    const withdrawal = await findWithdrawal(database.db, order.payout_request_id as string);
    expect(withdrawal).toMatchObject({
      state: 'review_approved',
      user_id: userId,
      coin: 'BNB',
      network: 'bsc',
      address: EVM_ADDRESS_A,
      idempotency_key: `exchange:${order.id}:payout`,
      fee_minor: order.network_fee_minor,
    });
    expect(BigInt(withdrawal?.amount_minor ?? 0) - BigInt(withdrawal?.fee_minor ?? 0)).toBe(
      BigInt(order.receive_amount_minor ?? -1),
    );
    // The payout sits in the user's locked balance until the signer settles it.
    expect(await balanceOf(database.db, 'user_locked', userId, 'BNB')).toBe(BigInt(withdrawal?.amount_minor ?? 0));

    const txHash = `0x${'22'.repeat(32)}`;
    await database.db.transaction().execute(async (trx) => {
      await markTransferInProgress(trx, withdrawal?.id as string, txHash, clock);
    });
    await engine.tick();
    expect((await findOrder(database.db, order.id))?.state).toBe('sending');
    await database.db.transaction().execute(async (trx) => {
      await markTransferSuccessful(trx, withdrawal?.id as string, clock);
    });
    await engine.tick();
    expect(await findOrder(database.db, order.id)).toMatchObject({
      state: 'completed',
      payout_tx_hash: txHash,
      deposit_tx_hash: `0x${'21'.repeat(32)}`,
    });
    expect(await balanceOf(database.db, 'user_locked', userId, 'BNB')).toBe(0n);
    expect(await balanceOf(database.db, 'user_available', userId, 'BNB')).toBe(0n);
    const report = await reconcile(database.db);
    expect(report.ok).toBe(true);
  });

  it('a reverted payout fails the order; the amount goes back to the user (available), nothing is lost', async () => {
    const order = await orderWithConfirmedDeposit('23');
    const id = order.payout_request_id as string;
    const amount = BigInt((await findWithdrawal(database.db, id))?.amount_minor ?? 0);
    await database.db.transaction().execute(async (trx) => {
      await markTransferInProgress(trx, id, `0x${'24'.repeat(32)}`, clock);
      await markTransferFailed(trx, id, 'reverted', clock);
    });
    await engine.tick();
    expect(await findOrder(database.db, order.id)).toMatchObject({
      state: 'failed',
      state_reason: 'payout_failed: reverted',
    });
    expect(await balanceOf(database.db, 'user_available', userId, 'BNB')).toBe(amount);
    expect((await reconcile(database.db)).ok).toBe(true);
  });

  it('requesting the same payout twice gives the same withdrawal', async () => {
    const gateway = withdrawalPayouts(database.db, now);
    const payout = {
      key: 'exchange:test:payout',
      orderId: 'test',
      userId,
      coin: 'BNB' as const,
      network: 'bsc' as const,
      address: EVM_ADDRESS_A,
      amountMinor: 10n ** 16n,
      feeMinor: 5n * 10n ** 14n,
    };
    const [a, b] = await database.db
      .transaction()
      .execute(async (trx) => [await gateway.request(trx, payout), await gateway.request(trx, payout)]);
    expect(a).toBe(b);
  });
});
