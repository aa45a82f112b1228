import { beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { buildTestApp, createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { listEvents } from './repository.ts';
import { EVM_ADDRESS_A, EVM_ADDRESS_B, fixedPrices, testXpubs } from './test-helpers.ts';

const database = useTestDatabase();
let clock = new Date('2030-01-02T03:04:05.000Z');
const prices = fixedPrices({ ETH: 3000n, BNB: 600n, BTC: 60000n, TRX: 1n, DOGE: 1n });
let app: App;
let userId: string;

const usdtToBnb = {
  sendCoin: 'USDT',
  sendNetwork: 'ethereum',
  receiveCoin: 'BNB',
  receiveNetwork: 'bsc',
  amountMinor: '100000000', // 100 USDT
} as const;

async function post(url: string, payload: unknown, user = userId) {
  return app.inject({ method: 'POST', url, payload: payload as object, headers: { [TEST_USER_HEADER]: user } });
}
async function get(url: string, user = userId) {
  return app.inject({ method: 'GET', url, headers: { [TEST_USER_HEADER]: user } });
}

async function fixedRate() {
  const res = await post('/api/exchange/rates', { ...usdtToBnb, rateType: 'fixed' });
  expect(res.statusCode).toBe(200);
  return res.json() as { rateId: string; expiresAt: string; estimatedReceiveMinor: string; rate: string };
}

describe('exchange rates and orders API', () => {
  beforeAll(async () => {
    app = buildTestApp({ db: database.db, now: () => clock, exchange: { prices, xpubs: testXpubs } });
    userId = await createUser(database.db);
  });

  it('float rate: an estimate with charges and limits, no rate id', async () => {
    const res = await post('/api/exchange/rates', { ...usdtToBnb, rateType: 'float' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // 100 USDT at 1/600 BNB = 0.1666.. BNB gross; 0.5% charge rounded up; 0.0005 BNB network fee.
    const gross = 166666666666666600n; // the rate is floored to 18 decimals first
    const charge = (gross * 50n + 9999n) / 10000n;
    expect(body).toMatchObject({
      rate: '0.001666666666666666',
      rateId: null,
      expiresAt: null,
      serviceChargeMinor: charge.toString(),
      networkFeeMinor: '500000000000000',
      minAmountMinor: '10000000',
      maxAmountMinor: '50000000000',
    });
    expect(BigInt(body.estimatedReceiveMinor)).toBe(gross - charge - 500000000000000n);
  });

  it('stablecoins exchange 1:1 across networks and decimals', async () => {
    const res = await post('/api/exchange/rates', {
      sendCoin: 'USDT',
      sendNetwork: 'ethereum',
      receiveCoin: 'TUSD',
      receiveNetwork: 'bsc',
      amountMinor: '100000000',
      rateType: 'float',
    });
    const body = res.json();
    expect(body.rate).toBe('1');
    // 100 TUSD (18 decimals) minus 0.5% minus the 0.5 TUSD network fee.
    expect(body.estimatedReceiveMinor).toBe((100n * 10n ** 18n - 5n * 10n ** 17n - 5n * 10n ** 17n).toString());
  });

  it('fixed rate: a rate id that holds for 20 minutes', async () => {
    const body = await fixedRate();
    expect(body.rateId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(body.expiresAt).getTime() - clock.getTime()).toBe(20 * 60_000);
  });

  it('float order: own deposit address, waiting, full record, events new -> waiting', async () => {
    const res = await post('/api/exchange/orders', {
      ...usdtToBnb,
      rateType: 'float',
      receiveAddress: EVM_ADDRESS_A.toLowerCase(),
      termsAccepted: true,
    });
    expect(res.statusCode).toBe(200);
    const order = res.json();
    expect(order).toMatchObject({
      status: 'waiting',
      rateType: 'float',
      sendCoin: 'USDT',
      receiveCoin: 'BNB',
      receiveAddress: EVM_ADDRESS_A, // stored checksummed
      refundAddress: null,
      deadlineAt: new Date(clock.getTime() + 24 * 3_600_000).toISOString(), // a float order waits 24 h
      depositTxHash: null,
      payoutTxHash: null,
      requiredConfirmations: 6,
      createdAt: clock.toISOString(),
    });
    expect(order.depositAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const events = await listEvents(database.db, order.id);
    expect(events.map((e) => [e.from_state, e.to_state])).toEqual([
      [null, 'new'],
      ['new', 'waiting'],
    ]);
    const again = await get(`/api/exchange/orders/${order.id}`);
    expect(again.json()).toEqual(order);
    const other = await createUser(database.db);
    expect((await get(`/api/exchange/orders/${order.id}`, other)).statusCode).toBe(404);

    const second = (
      await post('/api/exchange/orders', {
        ...usdtToBnb,
        rateType: 'float',
        receiveAddress: EVM_ADDRESS_A,
        termsAccepted: true,
      })
    ).json();
    expect(second.depositAddress).not.toBe(order.depositAddress);
  });

  it('fixed order: needs a refund address and a rate id; the deadline is the lock expiry; a rate id serves once', async () => {
    const rate = await fixedRate();
    const base = { ...usdtToBnb, rateType: 'fixed', receiveAddress: EVM_ADDRESS_A, termsAccepted: true };
    const noRefund = await post('/api/exchange/orders', { ...base, rateId: rate.rateId });
    expect(noRefund.statusCode).toBe(400);
    expect(noRefund.json().details).toEqual([expect.objectContaining({ field: 'refundAddress' })]);
    const noRate = await post('/api/exchange/orders', { ...base, refundAddress: EVM_ADDRESS_B });
    expect(noRate.json().details).toEqual([expect.objectContaining({ field: 'rateId' })]);

    const ok = await post('/api/exchange/orders', { ...base, rateId: rate.rateId, refundAddress: EVM_ADDRESS_B });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      status: 'waiting',
      rateType: 'fixed',
      rate: rate.rate,
      estimatedReceiveMinor: rate.estimatedReceiveMinor,
      refundAddress: EVM_ADDRESS_B,
      deadlineAt: rate.expiresAt,
    });
    const reuse = await post('/api/exchange/orders', { ...base, rateId: rate.rateId, refundAddress: EVM_ADDRESS_B });
    expect(reuse.statusCode).toBe(409);
    expect(reuse.json().code).toBe('EXCHANGE_RATE_EXPIRED');
  });

  it('the estimate shown for each rate type is what the placed order charges and pays', async () => {
    for (const rateType of ['float', 'fixed'] as const) {
      const estimate = (await post('/api/exchange/rates', { ...usdtToBnb, rateType })).json();
      const order = (
        await post('/api/exchange/orders', {
          ...usdtToBnb,
          rateType,
          ...(rateType === 'fixed' ? { rateId: estimate.rateId, refundAddress: EVM_ADDRESS_B } : {}),
          receiveAddress: EVM_ADDRESS_A,
          termsAccepted: true,
        })
      ).json();
      expect(order.rateType).toBe(rateType);
      expect(order.serviceChargeMinor).toBe(estimate.serviceChargeMinor);
      expect(order.networkFeeMinor).toBe(estimate.networkFeeMinor);
      expect(order.estimatedReceiveMinor).toBe(estimate.estimatedReceiveMinor);
      expect(order.rate).toBe(estimate.rate);
    }
    // The two rate types differ in their charge (0.5% against 1%), so a float estimate never stands in for a fixed one.
    const float = (await post('/api/exchange/rates', { ...usdtToBnb, rateType: 'float' })).json();
    const fixed = (await post('/api/exchange/rates', { ...usdtToBnb, rateType: 'fixed' })).json();
    expect(BigInt(fixed.serviceChargeMinor)).toBeGreaterThan(BigInt(float.serviceChargeMinor));
  });

  it('a fixed rate id past its 20 minutes is refused; a moved price does not change a locked rate', async () => {
    const rate = await fixedRate();
    const base = {
      ...usdtToBnb,
      rateType: 'fixed',
      receiveAddress: EVM_ADDRESS_A,
      refundAddress: EVM_ADDRESS_B,
      termsAccepted: true,
    };
    const start = clock;
    clock = new Date(start.getTime() + 20 * 60_000);
    const late = await post('/api/exchange/orders', { ...base, rateId: rate.rateId });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('EXCHANGE_RATE_EXPIRED');

    const fresh = await fixedRate();
    prices.set('BNB', 700n);
    clock = new Date(clock.getTime() + 19 * 60_000);
    const ok = await post('/api/exchange/orders', { ...base, rateId: fresh.rateId });
    expect(ok.json().rate).toBe(fresh.rate);
    prices.set('BNB', 600n);
    const wrongAmount = await post('/api/exchange/orders', { ...base, amountMinor: '200000000', rateId: fresh.rateId });
    expect(wrongAmount.statusCode).toBe(409); // already used
  });

  it('refuses bad input: address, terms, amount limits, pair, user of another rate id', async () => {
    const base = { ...usdtToBnb, rateType: 'float', receiveAddress: EVM_ADDRESS_A, termsAccepted: true };
    const badAddress = await post('/api/exchange/orders', { ...base, receiveAddress: 'TXYZ-not-an-address' });
    expect(badAddress.statusCode).toBe(400);
    expect(badAddress.json()).toMatchObject({
      code: 'EXCHANGE_ADDRESS_INVALID',
      details: [{ field: 'receiveAddress' }],
    });
    const badChecksum = await post('/api/exchange/orders', {
      ...base,
      receiveAddress: EVM_ADDRESS_A.replace('f39F', 'F39f'),
    });
    expect(badChecksum.json().code).toBe('EXCHANGE_ADDRESS_INVALID');
    const noTerms = await post('/api/exchange/orders', { ...base, termsAccepted: false });
    expect(noTerms.json().code).toBe('VALIDATION_FAILED');
    const tooSmall = await post('/api/exchange/orders', { ...base, amountMinor: '9999999' });
    expect(tooSmall.json()).toMatchObject({
      code: 'EXCHANGE_AMOUNT_OUT_OF_RANGE',
      details: [{ field: 'amountMinor' }],
    });
    const tooLarge = await post('/api/exchange/rates', { ...usdtToBnb, amountMinor: '50000000001', rateType: 'float' });
    expect(tooLarge.json().code).toBe('EXCHANGE_AMOUNT_OUT_OF_RANGE');
    const samePair = await post('/api/exchange/rates', {
      ...usdtToBnb,
      receiveCoin: 'USDT',
      receiveNetwork: 'ethereum',
      rateType: 'float',
    });
    expect(samePair.json().code).toBe('EXCHANGE_PAIR_UNAVAILABLE');
    const noSuchPair = await post('/api/exchange/rates', { ...usdtToBnb, sendNetwork: 'bitcoin', rateType: 'float' });
    expect(noSuchPair.json().code).toBe('EXCHANGE_PAIR_UNAVAILABLE');

    const rate = await fixedRate();
    const thief = await createUser(database.db);
    const stolen = await post(
      '/api/exchange/orders',
      { ...base, rateType: 'fixed', rateId: rate.rateId, refundAddress: EVM_ADDRESS_B },
      thief,
    );
    expect(stolen.json().code).toBe('EXCHANGE_RATE_EXPIRED');
  });

  it("refuses the platform's own addresses as receive or refund address: hot wallet, token contract, an order's deposit address", async () => {
    const HOT = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';
    const USDT_CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    const guarded = buildTestApp({
      db: database.db,
      now: () => clock,
      exchange: { prices, xpubs: testXpubs },
      hotWallets: { ethereum: HOT, bsc: HOT },
      wallet: {
        chains: () => ({ ethereum: { chainId: 1, rpcUrl: 'http://127.0.0.1:9', tokens: { USDT: USDT_CONTRACT } } }),
      },
    });
    const place = (body: object) =>
      guarded.inject({
        method: 'POST',
        url: '/api/exchange/orders',
        headers: { [TEST_USER_HEADER]: userId },
        payload: { ...usdtToBnb, rateType: 'float', receiveAddress: EVM_ADDRESS_A, termsAccepted: true, ...body },
      });
    const earlier = await place({});
    expect(earlier.statusCode).toBe(200);
    const orderAddress = earlier.json().depositAddress as string;
    const refused = [
      { receiveAddress: HOT },
      { receiveAddress: '0x0000000000000000000000000000000000000000' },
      { refundAddress: HOT.toLowerCase() },
      { refundAddress: USDT_CONTRACT },
      { refundAddress: orderAddress },
    ];
    for (const body of refused) {
      const res = await place(body);
      const field = Object.keys(body)[0];
      expect({ body, status: res.statusCode, answer: res.json() }).toMatchObject({
        status: 400,
        answer: { code: 'EXCHANGE_ADDRESS_INVALID', details: [{ field }] },
      });
    }
    await guarded.close();
  });

  it('a user keeps at most 5 unused fixed rates: asking in a loop replaces the oldest', async () => {
    const user = await createUser(database.db);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      clock = new Date(clock.getTime() + 1000);
      const res = await post('/api/exchange/rates', { ...usdtToBnb, rateType: 'fixed' }, user);
      ids.push(res.json().rateId);
    }
    const kept = await database.db.selectFrom('exchange_rate_locks').select('id').where('user_id', '=', user).execute();
    expect(kept.map((r) => r.id).sort()).toEqual(ids.slice(3).sort());
    // An order on a replaced rate is told the rate expired; the newest still places.
    const base = { ...usdtToBnb, rateType: 'fixed', receiveAddress: EVM_ADDRESS_A, refundAddress: EVM_ADDRESS_B };
    const stale = await post('/api/exchange/orders', { ...base, rateId: ids[0], termsAccepted: true }, user);
    expect(stale.json().code).toBe('EXCHANGE_RATE_EXPIRED');
    const fresh = await post('/api/exchange/orders', { ...base, rateId: ids[7], termsAccepted: true }, user);
    expect(fresh.statusCode).toBe(200);
  });

  it('without a price source only stablecoin pairs are priced', async () => {
    const bare = buildTestApp({ db: database.db, now: () => clock, exchange: { xpubs: testXpubs } });
    const headers = { [TEST_USER_HEADER]: userId };
    const res = await bare.inject({
      method: 'POST',
      url: '/api/exchange/rates',
      payload: { ...usdtToBnb, rateType: 'float' },
      headers,
    });
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('EXCHANGE_RATE_UNAVAILABLE');
    const stable = await bare.inject({
      method: 'POST',
      url: '/api/exchange/rates',
      payload: { ...usdtToBnb, receiveCoin: 'USDC', rateType: 'float' },
      headers,
    });
    expect(stable.statusCode).toBe(200);
    await bare.close();
  });

  it('only pairs the running system can serve: deposits it sees, payouts and refunds the signer sends', async () => {
    const limited = buildTestApp({
      db: database.db,
      now: () => clock,
      exchange: {
        prices,
        xpubs: testXpubs,
        availability: {
          canObserveDeposit: (coin, network) => network === 'ethereum' && coin === 'USDT',
          canPayOut: (_coin, network) => network === 'ethereum',
        },
      },
    });
    const headers = { [TEST_USER_HEADER]: userId };
    const rate = (payload: object) => limited.inject({ method: 'POST', url: '/api/exchange/rates', payload, headers });
    // BNB on bsc: no signer for bsc here, so nothing could be paid out.
    expect((await rate({ ...usdtToBnb, rateType: 'float' })).json().code).toBe('EXCHANGE_PAIR_UNAVAILABLE');
    // USDT on ethereum -> ETH on ethereum: deposit seen, payout and refund possible.
    const ok = await rate({ ...usdtToBnb, receiveCoin: 'ETH', receiveNetwork: 'ethereum', rateType: 'float' });
    expect(ok.statusCode).toBe(200);
    const pairs = (await limited.inject({ method: 'GET', url: '/api/exchange/pairs' })).json();
    expect(pairs.send).toEqual([{ coin: 'USDT', network: 'ethereum' }]);
    expect(pairs.receive.every((p: { network: string }) => p.network === 'ethereum')).toBe(true);
    expect(pairs.receive).toContainEqual({ coin: 'ETH', network: 'ethereum' });
    // USDC deposits are not watched here.
    const unseen = await rate({
      ...usdtToBnb,
      sendCoin: 'USDC',
      receiveCoin: 'ETH',
      receiveNetwork: 'ethereum',
      rateType: 'float',
    });
    expect(unseen.json().code).toBe('EXCHANGE_PAIR_UNAVAILABLE');
    await limited.close();
  });

  it('a user holds at most the configured number of unpaid orders; the error names the limit', async () => {
    const capped = buildTestApp({
      db: database.db,
      now: () => clock,
      exchange: { prices, xpubs: testXpubs, maxUnpaidOrders: 2 },
    });
    const holder = await createUser(database.db);
    const order = () =>
      capped.inject({
        method: 'POST',
        url: '/api/exchange/orders',
        headers: { [TEST_USER_HEADER]: holder },
        payload: { ...usdtToBnb, rateType: 'float', receiveAddress: EVM_ADDRESS_A, termsAccepted: true },
      });
    expect((await order()).statusCode).toBe(200);
    expect((await order()).statusCode).toBe(200);
    const third = await order();
    expect(third.statusCode).toBe(409);
    expect(third.json()).toMatchObject({ code: 'EXCHANGE_TOO_MANY_OPEN_ORDERS', details: { limit: 2 } });
    // Concurrent requests cannot pass the count together (serialised per user).
    const other = await createUser(database.db);
    const racing = await Promise.all(
      Array.from({ length: 5 }, () =>
        capped.inject({
          method: 'POST',
          url: '/api/exchange/orders',
          headers: { [TEST_USER_HEADER]: other },
          payload: { ...usdtToBnb, rateType: 'float', receiveAddress: EVM_ADDRESS_A, termsAccepted: true },
        }),
      ),
    );
    expect(racing.map((r) => r.statusCode).sort()).toEqual([200, 200, 409, 409, 409]);
    await capped.close();
  });

  it('history: newest first, cursor pages, only own orders', async () => {
    const user = await createUser(database.db);
    for (let i = 0; i < 5; i++) {
      clock = new Date(clock.getTime() + 1000);
      const res = await post(
        '/api/exchange/orders',
        { ...usdtToBnb, rateType: 'float', receiveAddress: EVM_ADDRESS_A, termsAccepted: true },
        user,
      );
      expect(res.statusCode).toBe(200);
    }
    const first = (await get('/api/exchange/orders?limit=3', user)).json();
    expect(first.items).toHaveLength(3);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await get(`/api/exchange/orders?limit=3&cursor=${first.nextCursor}`, user)).json();
    expect(second.items).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    const all = [...first.items, ...second.items].map((o: { createdAt: string }) => o.createdAt);
    expect(all).toEqual([...all].sort().reverse());
    expect((await get('/api/exchange/orders?cursor=nonsense', user)).statusCode).toBe(400);
  });
});
