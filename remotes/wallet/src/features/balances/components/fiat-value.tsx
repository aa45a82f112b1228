import { formatFiatValue, type Prices } from '@cw/shared-state/prices';
import * as styles from './hub-screen.module.css';

/** "≈ $12.34" of an amount in the user's price-mode currency; nothing without a fresh price. */
export function FiatValue({ prices, coin, minor }: { prices: Prices | undefined; coin: string; minor: string }) {
  // Nothing for an empty balance: a column of "≈ 0.00" says nothing.
  if (minor === '0') return null;
  const text = formatFiatValue(prices, coin, BigInt(minor));
  if (text === null) return null;
  return (
    <span className={styles.fiat} data-testid={`balance-${coin}-fiat`}>
      ≈ {text}
    </span>
  );
}
