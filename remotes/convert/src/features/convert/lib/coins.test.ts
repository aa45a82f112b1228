import { describe, expect, it } from 'vitest';
import { filterCoins, inputDecimals } from './coins.ts';

describe('coins', () => {
  it('limits a stable swap into fewer decimals to whole target units, and searches coins', () => {
    expect(inputDecimals('TUSD', 'USDT')).toBe(6);
    expect(inputDecimals('TUSD', 'BTC')).toBe(18);
    expect(filterCoins('us')).toEqual(['USDT', 'USDC', 'TUSD']);
  });
});
