import { describe, expect, it } from 'vitest';
import { coinNetworks } from './catalogue.ts';
import { runtimePair, TRON_MAINNET_USDT, tokenWithoutContract, tronTokenContract } from './runtime.ts';

const tron = (coin: string) => {
  const pair = coinNetworks.find((p) => p.coin === coin && p.network === 'tron');
  if (!pair) throw new Error(`no ${coin} on tron`);
  return pair;
};
const watchedTron = new Set(['tron'] as const);

describe('TRON tokens without a configured contract (issue 39 item 7)', () => {
  it('reads the same contracts the TRON watcher reads: TRON_TOKEN_<COIN>, USDT mainnet by default', () => {
    expect(tronTokenContract('USDT', {})).toBe(TRON_MAINNET_USDT);
    expect(tronTokenContract('TUSD', {})).toBeNull();
    expect(tronTokenContract('TUSD', { TRON_TOKEN_TUSD: ' TUpMhErZL2fhh4sVNULAbNKLokS4GjC1F4 ' })).toBe(
      'TUpMhErZL2fhh4sVNULAbNKLokS4GjC1F4',
    );
  });

  it('a TRON token the watcher does not read is not offered for deposit, even on a watched network', () => {
    expect(tokenWithoutContract(tron('TUSD'), {}, {})).toBe(true);
    expect(tokenWithoutContract(tron('USDT'), {}, {})).toBe(false);
    expect(tokenWithoutContract(tron('TRX'), {}, {})).toBe(false);
    expect(tokenWithoutContract(tron('TUSD'), {}, { TRON_TOKEN_TUSD: 'T1' })).toBe(false);
    const saved = process.env.TRON_TOKEN_TUSD;
    delete process.env.TRON_TOKEN_TUSD;
    try {
      expect(runtimePair(tron('TUSD'), {}, true, watchedTron).depositEnabled).toBe(false);
      expect(runtimePair(tron('USDT'), {}, true, watchedTron).depositEnabled).toBe(true);
    } finally {
      if (saved !== undefined) process.env.TRON_TOKEN_TUSD = saved;
    }
  });
});
