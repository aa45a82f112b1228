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

describe('GET /api/catalogue: a token without a configured contract (issue 40, item 2)', () => {
  type Pair = { coin: string; network: string; depositEnabled: boolean; tokenContract: string | null };

  it('is not offered for deposit (a wallet would be asked for the native coin, a watcher would never see it)', async () => {
    // BSC runs, but its USDT contract (BSC_TOKEN_USDT) is not configured.
    const chains = { ...TEST_CHAINS, bsc: { chainId: 5631337, rpcUrl: 'http://127.0.0.1:9', tokens: {} } };
    const app = buildTestApp({ db: createOfflineDb(), wallet: { chains: () => chains } });
    const body = (await app.inject({ method: 'GET', url: '/api/catalogue' })).json();
    const pair = (coin: string, network: string) =>
      (body.pairs as Pair[]).find((p) => p.coin === coin && p.network === network);
    expect(pair('USDT', 'bsc')).toMatchObject({ tokenContract: null, depositEnabled: false });
    expect(pair('BNB', 'bsc')).toMatchObject({ tokenContract: null, depositEnabled: true });
    expect(pair('USDT', 'ethereum')?.depositEnabled).toBe(true);
    // Every EVM token offered for deposit has its contract.
    const evm = (body.pairs as Pair[]).filter(
      (p) => (p.network === 'ethereum' || p.network === 'bsc') && p.depositEnabled,
    );
    const natives = new Set(['ETH', 'BNB']);
    expect(evm.filter((p) => !natives.has(p.coin) && p.tokenContract === null)).toEqual([]);
    await app.close();
  });
});
