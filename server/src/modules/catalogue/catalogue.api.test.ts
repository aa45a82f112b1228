import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { createOfflineDb } from '../../db/offline-db.ts';
import { buildTestApp } from '../../test/app.ts';
import { TEST_CHAINS } from '../withdrawals/test-helpers.ts';

describe('GET /api/catalogue without a running signer', () => {
  let app: App;
  beforeAll(async () => {
    app = buildTestApp({ db: createOfflineDb(), wallet: { chains: () => TEST_CHAINS, signerRunning: false } });
    await app.ready();
  });
  afterAll(() => app.close());

  it('keeps token contracts but enables no withdrawal', async () => {
    const body = (await app.inject({ method: 'GET', url: '/api/catalogue' })).json();
    expect(body.pairs.filter((p: { withdrawEnabled: boolean }) => p.withdrawEnabled)).toEqual([]);
    const usdt = body.pairs.find(
      (p: { coin: string; network: string }) => p.coin === 'USDT' && p.network === 'ethereum',
    );
    expect(usdt.tokenContract).toBe(TEST_CHAINS.ethereum?.tokens.USDT);
    expect(body.pairs.every((p: { withdrawMinMinor: string }) => /^\d+$/.test(p.withdrawMinMinor))).toBe(true);
  });
});

describe('GET /api/catalogue: which networks are live', () => {
  type Pair = { coin: string; network: string; depositEnabled: boolean };
  type Net = { code: string; depositsLive: boolean };

  it('by default only the running EVM chains take deposits; TRON, Bitcoin and Dogecoin are not live', async () => {
    const app = buildTestApp({ db: createOfflineDb(), wallet: { chains: () => TEST_CHAINS } });
    const body = (await app.inject({ method: 'GET', url: '/api/catalogue' })).json();
    const live = (body.networks as Net[]).filter((n) => n.depositsLive).map((n) => n.code);
    expect(live.sort()).toEqual(['bsc', 'ethereum']);
    const depositable = new Set((body.pairs as Pair[]).filter((p) => p.depositEnabled).map((p) => p.network));
    expect([...depositable].sort()).toEqual(['bsc', 'ethereum']);
    await app.close();
  });

  it('a network watched through its API (e.g. TRONGRID_URL) is live', async () => {
    const app = buildTestApp({
      db: createOfflineDb(),
      wallet: { chains: () => TEST_CHAINS, watchedNetworks: () => new Set(['ethereum', 'tron'] as const) },
    });
    const body = (await app.inject({ method: 'GET', url: '/api/catalogue' })).json();
    expect((body.networks as Net[]).find((n) => n.code === 'tron')?.depositsLive).toBe(true);
    expect((body.networks as Net[]).find((n) => n.code === 'bsc')?.depositsLive).toBe(false);
    expect((body.pairs as Pair[]).find((p) => p.coin === 'USDT' && p.network === 'tron')?.depositEnabled).toBe(true);
    await app.close();
  });
});
