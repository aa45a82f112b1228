import { describe, expect, it } from 'vitest';
import { isPriceColorMode, PRICE_GREEN, PRICE_RED, priceColors } from './price-colors.ts';

describe('priceColors', () => {
  it('green-up: green rises, red falls', () => {
    expect(priceColors('green-up')).toEqual({ rise: PRICE_GREEN, fall: PRICE_RED });
  });

  it('red-up: red rises, green falls (the Chinese convention)', () => {
    expect(priceColors('red-up')).toEqual({ rise: PRICE_RED, fall: PRICE_GREEN });
  });

  it('knows the two modes only', () => {
    expect(isPriceColorMode('red-up')).toBe(true);
    expect(isPriceColorMode('blue-up')).toBe(false);
  });
});
