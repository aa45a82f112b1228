import { beforeEach, describe, expect, it, vi } from 'vitest';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<(request: Request) => Promise<Response>>();
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
});

const { placeOrder, isSettled } = await import('./exchange-api.ts');
type Shown = NonNullable<Parameters<typeof placeOrder>[1]>;

const pair = {
  sendCoin: 'USDT',
  sendNetwork: 'ethereum',
  receiveCoin: 'BNB',
  receiveNetwork: 'bsc',
  amountMinor: '100000000',
} as const;
const addresses = {
  receiveAddress: '0x1111111111111111111111111111111111111111',
  refundAddress: '0x2222222222222222222222222222222222222222',
};
const shownFixed: Shown = {
  ...pair,
  sendAmountMinor: pair.amountMinor,
  rateType: 'fixed',
  rate: '0.001666666666666666',
  estimatedReceiveMinor: '164500000000000000',
  serviceChargeMinor: '1666666666666667',
  networkFeeMinor: '500000000000000',
  minAmountMinor: '10000000',
  maxAmountMinor: '50000000000',
  rateId: '00000000-0000-4000-8000-00000000000a',
  expiresAt: '2030-01-01T00:20:00.000Z',
};

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

async function bodies(): Promise<{ url: string; body: Record<string, unknown> }[]> {
  return Promise.all(fetchMock.mock.calls.map(async ([r]) => ({ url: r.url, body: await r.clone().json() })));
}

beforeEach(() => fetchMock.mockReset());

describe('placeOrder', () => {
  it('a fixed order carries the rate id of the quote the user was shown, and asks for no new rate', async () => {
    fetchMock.mockResolvedValueOnce(json({ id: 'o1' }));
    await placeOrder({ ...pair, rateType: 'fixed', ...addresses }, shownFixed);
    const calls = await bodies();
    expect(calls.map((c) => new URL(c.url).pathname)).toEqual(['/api/exchange/orders']);
    expect(calls[0]?.body).toMatchObject({ rateType: 'fixed', rateId: shownFixed.rateId, amountMinor: '100000000' });
  });

  it('a shown quote for another amount is not used: a new rate is locked first', async () => {
    fetchMock.mockResolvedValueOnce(json({ ...shownFixed, rateId: 'new-rate' }));
    fetchMock.mockResolvedValueOnce(json({ id: 'o2' }));
    await placeOrder({ ...pair, amountMinor: '200000000', rateType: 'fixed', ...addresses }, shownFixed);
    const calls = await bodies();
    expect(calls.map((c) => new URL(c.url).pathname)).toEqual(['/api/exchange/rates', '/api/exchange/orders']);
    expect(calls[1]?.body).toMatchObject({ rateId: 'new-rate' });
  });

  it('a float order has no rate id', async () => {
    fetchMock.mockResolvedValueOnce(json({ id: 'o3' }));
    await placeOrder({ ...pair, rateType: 'float', receiveAddress: addresses.receiveAddress }, undefined);
    const calls = await bodies();
    expect(calls[0]?.body).not.toHaveProperty('rateId');
    expect(calls[0]?.body).toMatchObject({ rateType: 'float', termsAccepted: true });
  });
});

describe('a refunded order (issue 37, item 9)', () => {
  const refunded = {
    status: 'refunded',
    payoutTxHash: null,
    payoutAddress: addresses.refundAddress,
    refundedTo: 'address',
    refundFailedAt: null,
  } as unknown as Parameters<typeof isSettled>[0];

  it('is settled once its refund is mined, or once the refund failed and went to the wallet balance', () => {
    expect(isSettled(refunded)).toBe(false); // on its way to the refund address
    expect(isSettled({ ...refunded, payoutTxHash: `0x${'ab'.repeat(32)}` } as typeof refunded)).toBe(true);
    expect(
      isSettled({ ...refunded, refundedTo: 'wallet', refundFailedAt: '2030-01-01T00:00:00.000Z' } as typeof refunded),
    ).toBe(true);
  });
});
