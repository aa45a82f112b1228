import { useTranslation } from '@cw/shared-state/i18n';
import { invertRate, useAmountFormat } from '@cw/shared-state/money';
import { useState } from 'react';
import { NAMESPACE } from '../i18n.ts';
import * as styles from './rate-text.module.css';

export interface RateTextProps {
  from: string;
  to: string;
  /** Units of `to` for one `from`, a decimal string. */
  rate: string;
  /** A fixed rate reads "=", an estimate "≈". */
  exact?: boolean;
  testId?: string;
}

/**
 * "1 USDT ≈ 0.0000111193 BTC"; a tap reads it the other way, "1 BTC ≈ 89,933.2 USDT", as exchange
 * apps let the user do: a rate far below 1 is hard to read. Display only: the quote is not changed.
 */
export function RateText({ from, to, rate, exact = false, testId }: RateTextProps) {
  const { t } = useTranslation(NAMESPACE);
  const { rate: formatRate } = useAmountFormat();
  const [flipped, setFlipped] = useState(false);
  const inverse = invertRate(rate);
  const sign = exact ? '=' : '≈';
  if (inverse === null) return <span data-testid={testId}>{`1 ${from} ${sign} ${formatRate(rate)} ${to}`}</span>;
  const text = flipped
    ? `1 ${to} ${sign} ${formatRate(inverse)} ${from}`
    : `1 ${from} ${sign} ${formatRate(rate)} ${to}`;
  return (
    <button
      type="button"
      className={styles.flip}
      title={t('trade.flipRate')}
      aria-pressed={flipped}
      onClick={() => setFlipped((f) => !f)}
      data-testid={testId ? `${testId}-flip` : undefined}
    >
      <span data-testid={testId}>{text}</span>
      <span className={styles.icon} aria-hidden="true">
        ⇄
      </span>
    </button>
  );
}
