import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { buildTestApp, createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { seedLiquidity } from '../convert/liquidity.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { createExchangeEngine, type ExchangeEngine } from './engine.ts';
import { findOrder, listEvents } from './repository.ts';
import { EVM_ADDRESS_A, EVM_ADDRESS_B, fixedPrices, memoryChain, testXpubs } from './test-helpers.ts';

const database = useTestDatabase();
let clock = new Date('2030-01-02T03:04:05.000Z');
const now = () => clock;
const prices = fixedPrices({ ETH: 3000n, BNB: 600n, BTC: 60000n, TRX: 1n, DOGE: 1n });
const chain = memoryChain();
let engine: ExchangeEngine;
let userId: string;
const errors: unknown[] = [];

// One app places every order of the file (an app per order cost ~0.5 s of CPU each to build).
let shared: App | undefined;
const orderApp = () => {
  shared ??= buildTestApp({ db: database.db, now, exchange: { prices, xpubs: testXpubs } });
  return shared;
};
afterAll(() => shared?.close());

const usdtToBnb = {
  sendCoin: 'USDT',
  sendNetwork: 'ethereum',
  receiveCoin: 'BNB',
  receiveNetwork: 'bsc',
  amountMinor: '100000000', // 100 USDT
} as const;

async function createOrder(rateType: 'float' | 'fixed', overrides: Record<string, unknown> = {}) {
  const app = orderApp();
  const headers = { [TEST_USER_HEADER]: userId };
  const body: Record<string, unknown> = {
    ...usdtToBnb,
    ...overrides,
    rateType,
    receiveAddress: EVM_ADDRESS_A,
    refundAddress: EVM_ADDRESS_B,
    termsAccepted: true,
  };
  if (overrides.refundAddress === null) delete body.refundAddress;
  if (rateType === 'fixed') {
    const rate = await app.inject({
      method: 'POST',
      url: '/api/exchange/rates',
      payload: { ...usdtToBnb, ...overrides, rateType },
      headers,
    });
    body.rateId = rate.json().rateId;
  }
  const res = await app.inject({ method: 'POST', url: '/api/exchange/orders', payload: body, headers });
  expect(res.statusCode).toBe(200);
  return res.json() as { id: string; depositAddress: string; estimatedReceiveMinor: string; deadlineAt: string | null };
}

const state = async (id: string) => (await findOrder(database.db, id))?.state;

describe('exchange engine', () => {
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

  it('fixed rate: waiting -> confirming -> exchanging -> sending -> completed, with both hashes and ledger legs', async () => {
    const order = await createOrder('fixed');
    const liquidityBnb = await balanceOf(database.db, 'system_liquidity', null, 'BNB');
    await engine.tick();
    expect(await state(order.id)).toBe('waiting');

    chain.deposit(order.depositAddress, 100_000_000n, 1, `0x${'01'.repeat(32)}`);
    await engine.tick();
    expect(await state(order.id)).toBe('confirming');
    expect((await findOrder(database.db, order.id))?.deposit_confirmations).toBe(1);

    chain.deposit(order.depositAddress, 100_000_000n, 6, `0x${'01'.repeat(32)}`);
    await engine.tick(); // confirmed -> exchanging -> sending in one tick
    const sending = await findOrder(database.db, order.id);
    expect(sending).toMatchObject({ state: 'sending', receive_amount_minor: order.estimatedReceiveMinor });
    const payout = chain.payouts.get(`exchange:${order.id}:payout`);
    expect(payout?.request).toMatchObject({ address: EVM_ADDRESS_A, coin: 'BNB', network: 'bsc' });
    // The payout carries the network fee on top of what arrives (the settlement sends net, keeps the fee).
    expect((payout?.request.amountMinor ?? 0n) - (payout?.request.feeMinor ?? 0n)).toBe(
      BigInt(order.estimatedReceiveMinor),
    );

    await engine.tick(); // payout still pending
    expect(await state(order.id)).toBe('sending');
    chain.mine(`exchange:${order.id}:payout`, `0x${'02'.repeat(32)}`);
    await engine.tick();
    const done = await findOrder(database.db, order.id);
    expect(done).toMatchObject({
      state: 'completed',
      deposit_tx_hash: `0x${'01'.repeat(32)}`,
      payout_tx_hash: `0x${'02'.repeat(32)}`,
    });
    expect((await listEvents(database.db, order.id)).map((e) => e.to_state)).toEqual([
      'new',
      'waiting',
      'confirming',
      'exchanging',
      'sending',
      'completed',
    ]);
    // Liquidity paid the gross amount: net to the user's address, charge and network fee to fees.
    const gross =
      BigInt(done?.receive_amount_minor ?? 0) +
      BigInt(done?.service_charge_minor ?? 0) +
      BigInt(done?.network_fee_minor ?? 0);
    expect(await balanceOf(database.db, 'system_liquidity', null, 'BNB')).toBe(liquidityBnb - gross);
    expect((await reconcile(database.db)).ok).toBe(true);

    // More ticks change nothing (work is recorded, ledger keys are per order).
    await engine.tick();
    expect(await balanceOf(database.db, 'system_liquidity', null, 'BNB')).toBe(liquidityBnb - gross);
  });

  it('fixed rate without a deposit by the deadline expires; a late deposit is refunded to the refund address', async () => {
    const order = await createOrder('fixed');
    clock = new Date(new Date(order.deadlineAt as string).getTime() + 1);
    await engine.tick();
    expect(await state(order.id)).toBe('expired');

    chain.deposit(order.depositAddress, 100_000_000n, 6, `0x${'03'.repeat(32)}`);
    await engine.tick(); // seen, then confirmed and refunded
    const refunded = await findOrder(database.db, order.id);
    // 100 USDT minus the ethereum USDT network fee (5 USDT).
    expect(refunded).toMatchObject({
      state: 'refunded',
      state_reason: 'late_deposit',
      payout_address: EVM_ADDRESS_B,
      payout_amount_minor: '95000000',
    });
    chain.mine(`exchange:${order.id}:refund`, `0x${'04'.repeat(32)}`);
    await engine.tick();
    expect((await findOrder(database.db, order.id))?.payout_tx_hash).toBe(`0x${'04'.repeat(32)}`);
    expect((await reconcile(database.db)).ok).toBe(true);
  });

  it('fixed rate: a deposit whose block is after the deadline is late even when first seen before the expiry', async () => {
    const order = await createOrder('fixed');
    const deadline = new Date(order.deadlineAt as string);
    chain.deposit(order.depositAddress, 100_000_000n, 6, `0x${'10'.repeat(32)}`, new Date(deadline.getTime() + 1000));
    await engine.tick();
    const row = await findOrder(database.db, order.id);
    expect(row).toMatchObject({ state: 'refunded', state_reason: 'late_deposit' });
    expect((await listEvents(database.db, order.id)).map((e) => e.to_state)).toEqual([
      'new',
      'waiting',
      'expired',
      'refunded',
    ]);
  });

  it('float: a rate that moved beyond the tolerance is refunded', async () => {
    const order = await createOrder('float');
    chain.deposit(order.depositAddress, 100_000_000n, 6, `0x${'05'.repeat(32)}`);
    prices.set('BNB', 700n); // BNB up 16%: fewer BNB per USDT than estimated
    await engine.tick();
    prices.set('BNB', 600n);
    expect(await findOrder(database.db, order.id)).toMatchObject({ state: 'refunded', state_reason: 'rate_moved' });
  });

  it('float: settles at the rate at confirmation when within tolerance', async () => {
    const order = await createOrder('float');
    chain.deposit(order.depositAddress, 100_000_000n, 6, `0x${'06'.repeat(32)}`);
    prices.set('BNB', 590n); // better for the user: fine
    await engine.tick();
    prices.set('BNB', 600n);
    const row = await findOrder(database.db, order.id);
    expect(row?.state).toBe('sending');
    expect(BigInt(row?.receive_amount_minor ?? 0)).toBeGreaterThan(BigInt(order.estimatedReceiveMinor));
    expect(row?.final_rate_scaled).not.toBe(row?.rate_scaled);
  });

  it('float: a deposit outside the limits is refunded; fixed: a deposit of another amount is refunded', async () => {
    const float = await createOrder('float');
    chain.deposit(float.depositAddress, 60_000_000_000n, 6, `0x${'07'.repeat(32)}`); // 60,000 USDT > max
    const fixed = await createOrder('fixed');
    chain.deposit(fixed.depositAddress, 99_000_000n, 6, `0x${'08'.repeat(32)}`);
    await engine.tick();
    expect(await findOrder(database.db, float.id)).toMatchObject({
      state: 'refunded',
      state_reason: 'amount_out_of_range',
    });
    expect(await findOrder(database.db, fixed.id)).toMatchObject({
      state: 'refunded',
      state_reason: 'amount_mismatch',
      payout_amount_minor: '94000000',
    });
  });

  it("float without a refund address: a refund goes to the user's wallet balance, whole", async () => {
    const res = await orderApp().inject({
      method: 'POST',
      url: '/api/exchange/orders',
      headers: { [TEST_USER_HEADER]: userId },
      payload: { ...usdtToBnb, rateType: 'float', receiveAddress: EVM_ADDRESS_A, termsAccepted: true },
    });
    const order = res.json() as { id: string; depositAddress: string };
    const wallet = await balanceOf(database.db, 'user_available', userId, 'USDT');
    chain.deposit(order.depositAddress, 5_000_000n, 6, `0x${'0f'.repeat(32)}`); // 5 USDT < 10 USDT minimum
    await engine.tick();
    expect(await findOrder(database.db, order.id)).toMatchObject({
      state: 'refunded',
      state_reason: 'amount_out_of_range; to_wallet',
      payout_address: null,
      payout_amount_minor: '5000000',
    });
    expect(await balanceOf(database.db, 'user_available', userId, 'USDT')).toBe(wallet + 5_000_000n);
    expect((await reconcile(database.db)).ok).toBe(true);
  });

  it('not enough liquidity suspends the order (risk hold); a failed payout fails the order', async () => {
    const big = await createOrder('float', { amountMinor: '49000000000' }); // 49,000 USDT -> ~81 BNB
    const bnb = await balanceOf(database.db, 'system_liquidity', null, 'BNB');
    // Drain the BNB liquidity below the payout with a seed in reverse: post a transfer out of it.
    await database.db.transaction().execute(async (trx) => {
      const { ensureAccount } = await import('../ledger/repository.ts');
      const { postTransfer } = await import('../ledger/post-transfer.ts');
      const liquidity = await ensureAccount(trx, { kind: 'system_liquidity', userId: null, asset: 'BNB' });
      const external = await ensureAccount(trx, { kind: 'system_external', userId: null, asset: 'BNB' });
      await postTransfer(
        trx,
        {
          idempotencyKey: 'test:drain-bnb',
          kind: 'exchange',
          legs: [
            { accountId: liquidity, amountMinor: -(bnb - 10n ** 18n) },
            { accountId: external, amountMinor: bnb - 10n ** 18n },
          ],
        },
        clock,
      );
    });
    chain.deposit(big.depositAddress, 49_000_000_000n, 6, `0x${'09'.repeat(32)}`);
    await engine.tick();
    expect(await findOrder(database.db, big.id)).toMatchObject({
      state: 'suspended',
      state_reason: 'insufficient_liquidity',
    });

    await seedLiquidity(database.db, clock, { BNB: '1000' }, 'test-refill');
    const small = await createOrder('float');
    chain.deposit(small.depositAddress, 100_000_000n, 6, `0x${'0a'.repeat(32)}`);
    await engine.tick();
    expect(await state(small.id)).toBe('sending');
    chain.fail(`exchange:${small.id}:payout`);
    await engine.tick();
    expect(await findOrder(database.db, small.id)).toMatchObject({
      state: 'failed',
      state_reason: 'payout_failed: reverted',
    });
    expect((await reconcile(database.db)).ok).toBe(true);
  });

  it('float without a deposit expires after its window (24 h); a late deposit goes whole to the wallet when there is no refund address', async () => {
    const order = await createOrder('float', { refundAddress: null });
    expect(new Date(order.deadlineAt as string).getTime() - clock.getTime()).toBe(24 * 3_600_000);
    clock = new Date(new Date(order.deadlineAt as string).getTime() + 1);
    expect((await engine.tick()).expired).toBe(1);
    expect(await findOrder(database.db, order.id)).toMatchObject({ state: 'expired', state_reason: 'deadline_passed' });

    // Six days later the address is still watched: the deposit is credited to the user's wallet, not lost.
    clock = new Date(clock.getTime() + 6 * 86_400_000);
    const wallet = await balanceOf(database.db, 'user_available', userId, 'USDT');
    chain.deposit(order.depositAddress, 100_000_000n, 6, `0x${'12'.repeat(32)}`);
    await engine.tick();
    expect(await findOrder(database.db, order.id)).toMatchObject({
      state: 'refunded',
      state_reason: 'late_deposit; to_wallet',
      payout_amount_minor: '100000000',
    });
    expect(await balanceOf(database.db, 'user_available', userId, 'USDT')).toBe(wallet + 100_000_000n);
    expect((await reconcile(database.db)).ok).toBe(true);
  });

  it('an expired order is no longer watched once the late-deposit watch (7 days after the deadline) is over', async () => {
    const order = await createOrder('float');
    clock = new Date(new Date(order.deadlineAt as string).getTime() + 1);
    await engine.tick();
    expect(await state(order.id)).toBe('expired');
    const looked: string[] = [];
    const watching = createExchangeEngine({
      db: database.db,
      now,
      prices,
      deposits: { observe: async (o) => (looked.push(o.address), chain.deposits.observe(o)) },
      payouts: chain.gateway,
      onError: (err) => errors.push(err),
    });
    clock = new Date(clock.getTime() + 7 * 86_400_000 - 1000);
    await watching.tick();
    expect(looked).toContain(order.depositAddress);

    looked.length = 0;
    clock = new Date(clock.getTime() + 2000);
    chain.deposit(order.depositAddress, 100_000_000n, 6, `0x${'13'.repeat(32)}`);
    await watching.tick();
    expect(looked).not.toContain(order.depositAddress);
    expect(await state(order.id)).toBe('expired');
  });

  it('reported no unexpected errors', () => {
    expect(errors).toEqual([]);
  });
});
