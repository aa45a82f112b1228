import type { Prices } from '@cw/shared-state/prices';
import { describe, expect, it } from 'vitest';
import { totalValueText } from './total-value.ts';

const prices: Prices = {
  source: 'sandbox',
  fiat: 'USD',
  asOf: '2026-01-01T00:00:00Z',
  prices: [
    { asset: 'USDT', decimals: 6, price: '1' },
    { asset: 'ETH', decimals: 18, price: '2000.5' },
  ],
};

describe('totalValueText', () => {
  it('sums available and locked balances at their prices, exactly', () => {
    const text = totalValueText(prices, [
      { asset: 'USDT', availableMinor: '100500000', lockedMinor: '20000000' },
      { asset: 'ETH', availableMinor: '500000000000000000', lockedMinor: '0' },
      { asset: 'DOGE', availableMinor: '0', lockedMinor: '0' },
    ]);
    // 120.5 + 1000.25
    expect(text?.replace(/[^\d.]/g, '')).toBe('1120.75');
  });

  it('shows no total when a held coin has no price or prices are missing', () => {
    expect(totalValueText(prices, [{ asset: 'BTC', availableMinor: '1', lockedMinor: '0' }])).toBeNull();
    expect(totalValueText(undefined, [])).toBeNull();
  });
});
