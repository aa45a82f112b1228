import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMoonPayClient, ProviderError } from './client.ts';
import { floorMinor, ProviderAnswerError } from './decimals.ts';

// Answers shaped like MoonPay's documented ones, with more digits than a double holds.
const BUY_QUOTE = `{"baseCurrencyCode":"brl","baseCurrencyAmount":479.83,"quoteCurrencyAmount":0.123456789012345678,
"quoteCurrencyPrice":17054.1,"feeAmount":17.5,"extraFeeAmount":0,"networkFeeAmount":2.67,"totalAmount":500,"paymentMethod":"credit_debit_card"}`;

let server: Server;
let base = '';
const seen: { url: string; auth: string | undefined }[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', auth: req.headers.authorization });
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/v3/currencies/eth/buy_quote') return res.end(BUY_QUOTE);
    if (path === '/v3/currencies/eth/sell_quote')
      return res.writeHead(400).end('{"message":"Amount too low","type":"BadRequestError"}');
    if (path === '/v1/transactions/ext/order-1') {
      return res.end(
        '[{"id":"mp-9","status":"completed","externalTransactionId":"order-1","cryptoTransactionId":"0xab"}]',
      );
    }
    if (path === '/v3/currencies/eth/limits') return res.end('not json');
    res.writeHead(404).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = () =>
  createMoonPayClient({
    apiUrl: base,
    buyWidgetUrl: 'https://buy.moonpay.com',
    sellWidgetUrl: 'https://sell.moonpay.com',
    publishableKey: 'pk_test_key',
    secretKey: 'sk_test_key',
    webhookKey: 'wk',
    kind: 'live',
  });

describe('MoonPay adapter', () => {
  it('reads quote numbers exactly, never through a float', async () => {
    const q = await client().buyQuote({ code: 'eth', fiat: 'BRL', fiatAmount: '500', method: 'credit_debit_card' });
    // 0.123456789012345678 as a double is 0.12345678901234568: the 18th digit would be lost.
    expect(floorMinor(q.cryptoAmount, 18)).toBe(123456789012345678n);
    expect(floorMinor(q.fee, 2)).toBe(1750n);
    expect(floorMinor(q.total, 2)).toBe(50000n);
    const sent = new URL(seen.at(-1)?.url ?? '', base);
    expect(Object.fromEntries(sent.searchParams)).toMatchObject({
      apiKey: 'pk_test_key',
      baseCurrencyCode: 'brl',
      baseCurrencyAmount: '500',
      paymentMethod: 'credit_debit_card',
      areFeesIncluded: 'true',
    });
  });

  it('authenticates look-ups with the secret key and maps the transaction', async () => {
    const tx = await client().buyTransactionByExternalId('order-1');
    expect(tx).toMatchObject({ id: 'mp-9', status: 'completed', externalTransactionId: 'order-1' });
    expect(seen.at(-1)?.auth).toBe('Api-Key sk_test_key');
  });

  it("reports the provider's refusal with its message, and nonsense as an answer error", async () => {
    const refused = client().sellQuote({ code: 'eth', fiat: 'INR', cryptoAmount: '0.0001', payout: 'bank_in' });
    await expect(refused).rejects.toThrow(ProviderError);
    await expect(refused).rejects.toMatchObject({ status: 400, message: 'Amount too low' });
    await expect(client().limits({ code: 'eth', fiat: 'BRL', method: 'x' })).rejects.toThrow(ProviderAnswerError);
  });

  it('signs widget URLs with the secret key, signature last', () => {
    const url = client().widgetUrl('buy', {
      currencyCode: 'eth',
      walletAddress: '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae',
    });
    expect(url.startsWith('https://buy.moonpay.com?apiKey=pk_test_key&currencyCode=eth&walletAddress=0xde0b')).toBe(
      true,
    );
    expect(url).toMatch(/&signature=[A-Za-z0-9%]+$/);
  });
});
