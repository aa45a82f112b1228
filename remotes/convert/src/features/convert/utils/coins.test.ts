import { describe, expect, it } from 'vitest';
import { type ConvertCoinInfo, decimalsOf, filterCoins, inputDecimals, isConvertCoin } from './coins.ts';

/** The server catalogue's coins (server/src/modules/catalogue), in its order. */
const COINS: ConvertCoinInfo[] = [
  { code: 'USDT', decimals: 6 },
  { code: 'USDC', decimals: 6 },
  { code: 'TUSD', decimals: 18 },
  { code: 'BTC', decimals: 8 },
  { code: 'ETH', decimals: 18 },
  { code: 'BNB', decimals: 18 },
  { code: 'TRX', decimals: 6 },
  { code: 'DOGE', decimals: 8 },
];

describe('coins', () => {
  it('limits a stable swap into fewer decimals to whole target units, and searches coins', () => {
    expect(inputDecimals('TUSD', 'USDT', COINS)).toBe(6);
    expect(inputDecimals('TUSD', 'BTC', COINS)).toBe(18);
    expect(filterCoins('us', COINS)).toEqual(['USDT', 'USDC', 'TUSD']);
  });

  it('knows only the catalogue coins', () => {
    expect(decimalsOf('BTC', COINS)).toBe(8);
    expect(decimalsOf('XYZ', COINS)).toBe(0);
    expect(isConvertCoin('DOGE', COINS)).toBe(true);
    expect(isConvertCoin('XYZ', COINS)).toBe(false);
    expect(isConvertCoin('BTC', [])).toBe(false);
  });
});
