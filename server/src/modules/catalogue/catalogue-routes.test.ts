import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { createOfflineDb } from '../../db/offline-db.ts';
import { buildTestApp } from '../../test/app.ts';
import { TEST_CHAINS } from '../withdrawals/test-support.ts';

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
