import { fiatValueOf, type Prices } from '@cw/shared-state/prices';
import { formatFiat } from '@cw/shared-state/settings';

/**
 * The fiat value of all balances (available + locked) in the prices' currency;
 * null when prices are missing, so a partial sum is never shown as the total.
 */
export function totalValueText(
  prices: Prices | undefined,
  balances: readonly { asset: string; availableMinor: string; lockedMinor: string }[],
): string | null {
  if (!prices) return null;
  let total = 0n;
  for (const balance of balances) {
    const amount = BigInt(balance.availableMinor) + BigInt(balance.lockedMinor);
    if (amount === 0n) continue;
    const value = fiatValueOf(prices, balance.asset, amount);
    if (value === null) return null;
    total += value;
  }
  return formatFiat(total, prices.fiat);
}
