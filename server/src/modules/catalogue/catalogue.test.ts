import { describe, expect, it } from 'vitest';
import {
  coinCodes,
  coinNetworks,
  coins,
  findCoinNetwork,
  minor,
  networkCodes,
  networks,
  networksOf,
} from './catalogue.ts';

const pairName = (p: { coin: string; network: string }) => `${p.coin}/${p.network}`;

describe('coin display precision', () => {
  it('never shows more digits than the ledger keeps, and whole amounts no more than small ones', () => {
    for (const coin of coins) {
      expect(coin.displayDecimals, coin.code).toBeLessThanOrEqual(coin.decimals);
      expect(coin.displayDecimalsAtOne, coin.code).toBeLessThanOrEqual(coin.displayDecimals);
    }
  });
});

describe('catalogue', () => {
  it('lists every coin and network once', () => {
    expect(coins.map((c) => c.code)).toEqual([...coinCodes]);
    expect(networks.map((n) => n.code)).toEqual([...networkCodes]);
    const names = coinNetworks.map(pairName);
    expect(new Set(names).size).toBe(names.length);
  });

  it('offers every coin on at least one network, and every network carries its native coin', () => {
    for (const code of coinCodes) expect([code, networksOf(code).length > 0]).toEqual([code, true]);
    for (const network of networks) {
      const pair = findCoinNetwork(network.nativeCoin, network.code);
      expect([network.code, pair?.tokenContract]).toEqual([network.code, null]);
    }
  });

  it.each(coinNetworks.map((p) => [pairName(p), p] as const))('%s is consistent', (_name, pair) => {
    const coin = coins.find((c) => c.code === pair.coin);
    const network = networks.find((n) => n.code === pair.network);
    expect(coin).toBeDefined();
    expect(network).toBeDefined();
    const isNative = network?.nativeCoin === pair.coin;
    // Decimals match the coin: native coins exactly; tokens at least (the ledger unit is exact on chain).
    if (isNative) expect(pair.chainDecimals).toBe(coin?.decimals);
    else expect(pair.chainDecimals).toBeGreaterThanOrEqual(coin?.decimals ?? Number.POSITIVE_INFINITY);
    expect(pair.tokenContract === null).toBe(isNative);
    // Tokens only on networks with a token standard.
    if (!isNative) expect(network?.tokenStandard).not.toBeNull();

    expect(pair.minDepositMinor).toBeGreaterThan(0n);
    expect(pair.withdrawFeeMinor).toBeGreaterThanOrEqual(0n);
    expect(pair.withdrawFeeMinor).toBeLessThan(pair.withdrawMinMinor);
    expect(pair.withdrawMinMinor).toBeLessThanOrEqual(pair.withdrawMaxMinor);
    expect(Number.isInteger(pair.confirmations) && pair.confirmations >= 1).toBe(true);
    expect(pair.expectedArrivalMinutes).toBeGreaterThan(0);
    for (const amount of [pair.minDepositMinor, pair.withdrawMinMinor, pair.withdrawMaxMinor, pair.withdrawFeeMinor])
      expect(typeof amount).toBe('bigint');
  });

  it('carries the spec tiers: 1 USDT / 1 confirmation on tron, 0.001 USDT / 6 or 64 on ethereum and bsc', () => {
    expect(findCoinNetwork('USDT', 'tron')).toMatchObject({ minDepositMinor: 1_000_000n, confirmations: 1 });
    expect(findCoinNetwork('USDT', 'ethereum')).toMatchObject({ minDepositMinor: 1_000n, confirmations: 6 });
    expect(findCoinNetwork('USDT', 'bsc')).toMatchObject({ minDepositMinor: 1_000n, confirmations: 64 });
    expect(findCoinNetwork('USDT', 'bsc')?.chainDecimals).toBe(18);
  });

  it('converts decimal strings to minor units exactly, without floats', () => {
    expect(minor('1', 6)).toBe(1_000_000n);
    expect(minor('0.001', 6)).toBe(1_000n);
    expect(minor('123456789.123456789123456789', 18)).toBe(123456789123456789123456789n);
    expect(() => minor('0.0000001', 6)).toThrow(/more than 6 decimals/);
    expect(() => minor('-1', 6)).toThrow(/not a decimal/);
    expect(() => minor('1e3', 6)).toThrow(/not a decimal/);
  });
});
