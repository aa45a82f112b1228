import { describe, expect, it } from 'vitest';
import type { CoinCode } from '../catalogue/catalogue.ts';
import { PriceUnavailableError } from '../prices/errors.ts';
import { parseDecimal } from '../prices/rational.ts';
import { createOutflowBudget } from './outflow-budget.ts';

/**
 * Review item 3: valuing an outflow without a fresh price. The last known price stands, with a margin
 * (the price may have risen since); with none, the value is unknown (null): never a guess that could
 * be far below the coin's worth, as valuing by a share of the per-coin limit was.
 */
const fresh = (usd: Partial<Record<CoinCode, string>>, last: Partial<Record<CoinCode, string>> = {}) => ({
  price(coin: CoinCode) {
    const p = usd[coin];
    if (!p) throw new PriceUnavailableError();
    return parseDecimal(p);
  },
  lastKnown(coin: CoinCode) {
    const p = last[coin];
    return p ? parseDecimal(p) : null;
  },
});

describe('valuing an outflow in USD cents', () => {
  it('a fresh price: the value, rounded up', () => {
    const b = createOutflowBudget({ prices: fresh({ BTC: '50000' }) });
    expect(b.valueUsdCents('BTC', 50_000_000n)).toBe(2_500_000n);
  });

  it('no fresh price: the last known one plus half (rounded up)', () => {
    const b = createOutflowBudget({ prices: fresh({}, { BTC: '50000' }) });
    expect(b.valueUsdCents('BTC', 50_000_000n)).toBe(3_750_000n);
  });

  it('no price at all, or no price service: unknown (null), not the per-coin limit share', () => {
    expect(createOutflowBudget({ prices: fresh({}) }).valueUsdCents('BTC', 50_000_000n)).toBeNull();
    expect(createOutflowBudget({ prices: null }).valueUsdCents('BTC', 50_000_000n)).toBeNull();
  });

  it('a coin no longer in the catalogue: unknown (null), not a thrown error', () => {
    const b = createOutflowBudget({ prices: fresh({ BTC: '50000' }) });
    expect(b.valueUsdCents('XYZ' as CoinCode, 1n)).toBeNull();
  });
});
