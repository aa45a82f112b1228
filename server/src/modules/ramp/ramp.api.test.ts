import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  login,
  receiveCode,
  registerUser,
  sessionCookie,
  setFundPassword,
  useAuthHarness,
} from '../auth/test-helpers.ts';
import { createLedgerService } from '../ledger/service.ts';
import type { MoonPayClient } from './moonpay/client.ts';
import type { SandboxRamp } from './sandbox/sandbox-server.ts';
import { setCountry, signedWebhook, startTestProvider } from './test-helpers.ts';

// An xpub of the all-"abandon" test mnemonic (account 0): deposit addresses only, no keys.
const XPUB =
  'xpub6BosfCnifzxcFwrSzQiqu2DBVTshkCXacvNsWGYJVVhhawA7d4R5WSWGFNbi8Aw6ZRc1brxMyWMzG3DSSSSoekkudhUd9yLb6qx39T9nMdj';

let sandbox: SandboxRamp;
let client: MoonPayClient;
beforeAll(async () => {
  ({ sandbox, client } = await startTestProvider());
});
afterAll(async () => sandbox.close());

describe('buy and sell through the provider', () => {
  const h = useAuthHarness({
    auth: { codeLimits: { resendAfterSeconds: 0, perAddressPerHour: 10_000, perIpPerHour: 10_000 } },
    deposits: { xpubs: { ethereum: XPUB, bsc: XPUB } },
    ramp: { provider: () => client, networks: () => new Set(['ethereum', 'bsc'] as const), wallClockMs: Date.now },
  });
  const api = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    h.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const user = async (country: string) => {
    const u = await registerUser(h);
    await setCountry(h.db, u.user.id, country);
    return u;
  };
  const buyQuote = (cookie: string, amountMinor = '50000', method = 'credit_debit_card') =>
    api(cookie, 'POST', '/api/ramp/quotes', { side: 'buy', coin: 'USDT', network: 'ethereum', amountMinor, method });
  const webhook = (w: { body: string; header: string }) =>
    h.app.inject({
      method: 'POST',
      url: '/api/ramp/webhooks/moonpay',
      headers: { 'content-type': 'application/json', 'moonpay-signature-v2': w.header },
      payload: w.body,
    });

  it('refuses users outside Brazil and India, with the specification words', async () => {
    const u = await user('ES');
    const options = await api(u.cookie, 'GET', '/api/ramp/options');
    expect(options.json()).toMatchObject({ available: false, reason: 'country', fiat: null });
    const res = await buyQuote(u.cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'RAMP_COUNTRY_UNSUPPORTED' });
  });

  it('quotes a Brazilian card buy exactly (fees included, coins floored), with its expiry', async () => {
    const u = await user('BR');
    expect((await api(u.cookie, 'GET', '/api/ramp/options')).json()).toMatchObject({
      available: true,
      fiat: 'BRL',
      sandbox: true,
      buyMethods: ['credit_debit_card', 'pix_instant_payment'],
    });
    const res = await buyQuote(u.cookie, '50000');
    expect(res.statusCode).toBe(200);
    const q = res.json();
    // R$500.00: fee 3.5% = 17.50, network fee 0.5 USD * 5.33 = 2.67 (up), 479.83 / 5.33 = 90.024390 USDT (down).
    expect(q).toMatchObject({
      fiat: 'BRL',
      fiatAmountMinor: '50000',
      feeFiatMinor: '2017',
      cryptoAmountMinor: '90024390',
    });
    expect(new Date(q.expiresAt).getTime() - h.clock.now().getTime()).toBe(30_000);
    const upi = await buyQuote(u.cookie, '50000', 'upi_instant_payment');
    expect(upi.statusCode).toBe(400);
  });

  it('enforces the INR minimum and the provider limits', async () => {
    const u = await user('IN');
    const low = await api(u.cookie, 'POST', '/api/ramp/quotes', {
      side: 'buy',
      coin: 'USDT',
      network: 'ethereum',
      amountMinor: '99999',
      method: 'upi_instant_payment',
    });
    expect(low.statusCode).toBe(400);
    expect(low.json()).toMatchObject({
      code: 'AMOUNT_BELOW_MINIMUM',
      details: [{ field: 'amountMinor', message: '100000' }],
    });
    const high = await api(u.cookie, 'POST', '/api/ramp/quotes', {
      side: 'buy',
      coin: 'USDT',
      network: 'ethereum',
      amountMinor: '100000000',
      method: 'upi_instant_payment',
    });
    expect(high.json()).toMatchObject({ code: 'AMOUNT_ABOVE_MAXIMUM' });
  });

  it('places a buy with a signed checkout URL to the user deposit address; an expired quote is refused', async () => {
    const u = await user('BR');
    const q = (await buyQuote(u.cookie)).json();
    const placed = await api(u.cookie, 'POST', '/api/ramp/orders', {
      quoteId: q.id,
      termsAccepted: true,
      idempotencyKey: randomUUID(),
    });
    expect(placed.statusCode).toBe(200);
    const order = placed.json();
    expect(order).toMatchObject({
      side: 'buy',
      state: 'pending',
      fiatAmountMinor: '50000',
      cryptoAmountMinor: q.cryptoAmountMinor,
    });
    const url = new URL(order.checkoutUrl);
    expect(url.searchParams.get('externalTransactionId')).toBe(order.id);
    expect(url.searchParams.get('walletAddress')).toBe(order.walletAddress);
    const page = await fetch(order.checkoutUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('SANDBOX');
    const forged = await fetch(order.checkoutUrl.replace('baseCurrencyAmount=500', 'baseCurrencyAmount=5'));
    expect(forged.status).toBe(403);

    const late = (await buyQuote(u.cookie)).json();
    h.clock.advance(30_001);
    const refused = await api(u.cookie, 'POST', '/api/ramp/orders', {
      quoteId: late.id,
      termsAccepted: true,
      idempotencyKey: randomUUID(),
    });
    expect(refused.json()).toMatchObject({ code: 'RAMP_QUOTE_EXPIRED' });
    const noTerms = await api(u.cookie, 'POST', '/api/ramp/orders', {
      quoteId: late.id,
      termsAccepted: false,
      idempotencyKey: randomUUID(),
    });
    expect(noTerms.statusCode).toBe(400);
  });

  it('applies signed webhooks once each, in any order; refuses tampered and stale ones', async () => {
    const u = await user('BR');
    const q = (await buyQuote(u.cookie)).json();
    const order = (
      await api(u.cookie, 'POST', '/api/ramp/orders', {
        quoteId: q.id,
        termsAccepted: true,
        idempotencyKey: randomUUID(),
      })
    ).json();
    const tx = {
      id: 'mp-1',
      externalTransactionId: order.id,
      cryptoTransactionId: null,
      updatedAt: '2030-01-02T03:05:00Z',
    };
    const hash = `0x${'ab'.repeat(32)}`;
    const completed = signedWebhook('transaction_updated', {
      ...tx,
      status: 'completed',
      cryptoTransactionId: hash,
      updatedAt: '2030-01-02T03:06:00Z',
    });
    const pending = signedWebhook('transaction_updated', { ...tx, status: 'pending' });

    const tampered = { ...completed, body: completed.body.replace('completed', 'failed') };
    expect((await webhook(tampered)).statusCode).toBe(401);
    const stale = signedWebhook(
      'transaction_updated',
      { ...tx, status: 'failed' },
      { atS: Math.floor(Date.now() / 1000) - 301 },
    );
    expect((await webhook(stale)).statusCode).toBe(401);
    const wrongKey = signedWebhook('transaction_updated', { ...tx, status: 'failed' }, { key: 'wk_attacker' });
    expect((await webhook(wrongKey)).statusCode).toBe(401);

    expect((await webhook(completed)).json()).toEqual({ outcome: 'applied' });
    expect((await webhook(completed)).json()).toEqual({ outcome: 'duplicate' });
    expect((await webhook(pending)).json()).toEqual({ outcome: 'stale' });
    const got = (await api(u.cookie, 'GET', `/api/ramp/orders/${order.id}`)).json();
    expect(got).toMatchObject({ state: 'completed', txHash: hash, providerTransactionId: 'mp-1' });
    expect(got.events.map((e: { state: string }) => e.state)).toEqual(['pending', 'completed']);
  });

  it('sells: locks the coins, asks for a chat-app method when the buyer takes only that, releases on failure', async () => {
    const u = await user('IN');
    await setFundPassword(h, u, '739164');
    // The first fund password holds outflows for a day (withdrawals/outflow-holds.ts).
    h.clock.advance(25 * 3_600_000);
    u.cookie = sessionCookie(await login(h, u.username, u.password));
    await createLedgerService({ db: h.db, now: h.clock.now }).deposit({
      idempotencyKey: `fund:${u.user.id}`,
      userId: u.user.id,
      asset: 'ETH',
      amountMinor: 10n ** 18n,
    });
    const sell = (
      await api(u.cookie, 'POST', '/api/ramp/quotes', {
        side: 'sell',
        coin: 'ETH',
        network: 'ethereum',
        amountMinor: '100000000000000000',
        method: 'bank_in',
      })
    ).json();
    expect(sell.payoutKinds).toEqual(['chat_app']);
    const refused = await api(u.cookie, 'POST', '/api/ramp/orders', {
      quoteId: sell.id,
      termsAccepted: true,
      idempotencyKey: randomUUID(),
    });
    expect(refused.json()).toMatchObject({ code: 'RAMP_CHAT_APP_ONLY' });

    const chat = (
      await api(u.cookie, 'POST', '/api/payment-methods', {
        kind: 'chat_app',
        app: 'whatsapp',
        handle: '+919876543210',
        fundPassword: '739164',
      })
    ).json();
    const placed = await api(u.cookie, 'POST', '/api/ramp/orders', {
      quoteId: sell.id,
      termsAccepted: true,
      payoutMethodId: chat.id,
      idempotencyKey: randomUUID(),
      fundPassword: '739164',
      emailCode: await receiveCode(h, { purpose: 'withdraw', cookie: u.cookie, to: u.email }),
    });
    expect(placed.statusCode).toBe(200);
    const order = placed.json();
    const balances = async () =>
      (await api(u.cookie, 'GET', '/api/me/balances')).json().find((b: { asset: string }) => b.asset === 'ETH');
    const fee = BigInt(order.networkFeeMinor);
    expect(await balances()).toMatchObject({ lockedMinor: (10n ** 17n + fee).toString() });
    const failed = signedWebhook('sell_transaction_failed', {
      id: 'mp-sell-1',
      status: 'failed',
      externalTransactionId: order.id,
      failureReason: 'deposit_expired',
      updatedAt: 'x',
    });
    expect((await webhook(failed)).json()).toEqual({ outcome: 'applied' });
    expect(await balances()).toMatchObject({ lockedMinor: '0', availableMinor: (10n ** 18n).toString() });
    expect((await api(u.cookie, 'GET', `/api/ramp/orders/${order.id}`)).json()).toMatchObject({
      state: 'failed',
      reason: 'deposit_expired',
    });
  });

  it('lists records with a date filter whose start may not be after its end', async () => {
    const u = await user('BR');
    const q = (await buyQuote(u.cookie)).json();
    await api(u.cookie, 'POST', '/api/ramp/orders', {
      quoteId: q.id,
      termsAccepted: true,
      idempotencyKey: randomUUID(),
    });
    const day = h.clock.now().toISOString().slice(0, 10);
    const list = (await api(u.cookie, 'GET', `/api/ramp/orders?from=${day}&to=${day}`)).json();
    expect(list.items).toHaveLength(1);
    const bad = await api(u.cookie, 'GET', '/api/ramp/orders?from=2030-02-01&to=2030-01-01');
    expect(bad.json()).toMatchObject({ code: 'DATE_RANGE_INVALID' });
  });
});
