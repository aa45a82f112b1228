import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { createCoinGeckoSource, parseSimplePrice } from './coingecko-source.ts';
import { parseDecimal, rational, toDecimal } from './rational.ts';
import { createRandomWalk } from './sandbox/random-walk.ts';
import { type SandboxPriceServer, startSandboxPriceServer } from './sandbox/sandbox-price-server.ts';
import { createPriceService } from './service.ts';

const T0 = new Date('2030-01-02T03:04:05.000Z');

describe('exact prices', () => {
  it('keeps every digit of a JSON number (no float in between)', () => {
    const text = '{"bitcoin":{"usd":67187.123456789012345678,"eur":1.5e-7,"last_updated_at":1893553445}}';
    const snapshot = parseSimplePrice(text, ['BTC', 'ETH'], ['USD', 'EUR', 'COP'], T0);
    expect(snapshot.coins.BTC?.prices.USD).toEqual(parseDecimal('67187.123456789012345678'));
    expect(snapshot.coins.BTC?.prices.EUR).toEqual(rational(15n, 100_000_000n));
    // A currency or coin the source did not answer for is absent, not zero.
    expect(snapshot.coins.BTC?.prices.COP).toBeUndefined();
    expect(snapshot.coins.ETH).toBeUndefined();
    expect(snapshot.coins.BTC?.updatedAt).toEqual(new Date(1_893_553_445_000));
  });

  it('rounds decimal text down', () => {
    expect(toDecimal(rational(2n, 3n), 8)).toBe('0.66666666');
    expect(toDecimal(rational(5n), 8)).toBe('5');
  });
});

describe('sandbox random walk', () => {
  it('is deterministic and moves over time', () => {
    const a = createRandomWalk({ seed: 7, epoch: T0, tickMs: 1000 });
    const b = createRandomWalk({ seed: 7, epoch: T0, tickMs: 1000 });
    const later = new Date(T0.getTime() + 60_000);
    expect(a.usdPriceAt('BTC', later)).toBe(b.usdPriceAt('BTC', later));
    expect(a.usdPriceAt('BTC', T0)).toBe(9_000_000_000_000n);
    expect(a.usdPriceAt('BTC', later)).not.toBe(9_000_000_000_000n);
    expect(a.usdPriceAt('USDT', later)).toBe(100_000_000n);
  });
});

describe('the real adapter against loopback servers', () => {
  let clock = T0;
  const now = () => clock;
  let sandbox: SandboxPriceServer;
  beforeAll(async () => {
    sandbox = await startSandboxPriceServer({ now, epoch: T0 });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('reads every coin in every fiat from the sandbox, exactly', async () => {
    const source = createCoinGeckoSource({ baseUrl: sandbox.url, kind: 'sandbox', now });
    const snapshot = await source.fetchPrices(['BTC', 'USDT', 'TUSD'], ['USD', 'CNY', 'JPY']);
    expect(snapshot.coins.BTC?.prices.USD).toEqual(parseDecimal('90000'));
    expect(snapshot.coins.BTC?.prices.CNY).toEqual(parseDecimal('639000'));
    expect(snapshot.coins.TUSD?.prices.JPY).toEqual(parseDecimal('155'));
  });

  it('talks to a CoinGecko-shaped server: path, query and API key', async () => {
    let seen: { url: string; key: string | undefined } | undefined;
    const fake = createServer((req, res) => {
      seen = { url: req.url ?? '', key: req.headers['x-cg-demo-api-key'] as string | undefined };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"tether":{"usd":1.000123456789,"last_updated_at":1893553440},"bitcoin":{"usd":"oops"}}');
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = fake.address() as AddressInfo;
      const source = createCoinGeckoSource({ baseUrl: `http://127.0.0.1:${port}`, kind: 'live', apiKey: 'k1', now });
      const snapshot = await source.fetchPrices(['USDT', 'BTC'], ['USD']);
      const url = new URL(seen?.url ?? '', 'http://x');
      expect(url.pathname).toBe('/api/v3/simple/price');
      expect(url.searchParams.get('ids')).toBe('tether,bitcoin');
      expect(url.searchParams.get('vs_currencies')).toBe('usd');
      expect(url.searchParams.get('include_last_updated_at')).toBe('true');
      expect(seen?.key).toBe('k1');
      expect(snapshot.coins.USDT?.prices.USD).toEqual(parseDecimal('1.000123456789'));
      // A malformed price is left out, never guessed.
      expect(snapshot.coins.BTC?.prices.USD).toBeUndefined();
    } finally {
      await new Promise((resolve) => fake.close(resolve));
    }
  });

  it('refuses stale prices and keeps the last ones while the source is down', async () => {
    const service = createPriceService({
      source: createCoinGeckoSource({ baseUrl: sandbox.url, kind: 'sandbox', now }),
      now,
      maxAgeMs: 30_000,
    });
    expect(() => service.price('BTC', 'USD')).toThrow(expect.objectContaining({ code: 'PRICE_UNAVAILABLE' }));
    await service.refresh();
    expect(service.price('BTC', 'USD')).toEqual(parseDecimal('90000'));
    clock = new Date(T0.getTime() + 30_001);
    expect(() => service.price('BTC', 'USD')).toThrow(expect.objectContaining({ code: 'PRICE_UNAVAILABLE' }));
    await service.refresh();
    expect(service.price('BTC', 'USD').num).toBeGreaterThan(0n);

    const errors: unknown[] = [];
    const down = createPriceService({
      source: createCoinGeckoSource({ baseUrl: 'http://127.0.0.1:9', kind: 'live', now, timeoutMs: 500 }),
      now,
      onError: (err) => errors.push(err),
    });
    await down.refresh();
    expect(errors).toHaveLength(1);
    expect(() => down.price('BTC', 'USD')).toThrow(expect.objectContaining({ code: 'PRICE_UNAVAILABLE' }));
    clock = T0;
  });
});

describe('GET /api/prices', () => {
  const database = useTestDatabase();
  let sandbox: SandboxPriceServer;
  beforeAll(async () => {
    sandbox = await startSandboxPriceServer({ now: () => T0, epoch: T0 });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('lists prices in the fiat currency, labelled sandbox', async () => {
    const prices = createPriceService({
      source: createCoinGeckoSource({ baseUrl: sandbox.url, kind: 'sandbox', now: () => T0 }),
      now: () => T0,
    });
    await prices.refresh();
    const app = buildTestApp({ db: database.db, now: () => T0, prices });
    const res = await app.inject({ method: 'GET', url: '/api/prices?fiat=EUR' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.source).toBe('sandbox');
    expect(body.fiat).toBe('EUR');
    expect(body.asOf).toBe(T0.toISOString());
    expect(body.prices).toContainEqual({ asset: 'BTC', decimals: 8, price: '77400' });
    expect(body.prices).toContainEqual({ asset: 'USDT', decimals: 6, price: '0.86' });
    await app.close();
  });

  it('answers PRICE_UNAVAILABLE without a source', async () => {
    const app = buildTestApp({ db: database.db });
    const res = await app.inject({ method: 'GET', url: '/api/prices?fiat=USD' });
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('PRICE_UNAVAILABLE');
    await app.close();
  });
});
