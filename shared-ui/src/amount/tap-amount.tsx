import { type CoinDisplay, type DisplayRounding, isRounded, useAmountFormat } from '@cw/shared-state/money';
import { useState } from 'react';
import { useUiTranslation } from '../i18n/index.ts';
import './tap-amount.css';

export interface TapAmountProps {
  minor: string | bigint;
  coin: CoinDisplay;
  /** The coin code written after the amount. */
  code: string;
  testId?: string;
  className?: string;
  /** 'up' for a charge (a fee is never shown smaller than it is); default 'down'. */
  rounding?: DisplayRounding;
}

/**
 * An amount on a detail screen: the coin's display precision first, the full value one tap away
 * (and in the title, which a copy of the screen carries). Not a button when nothing is hidden.
 */
export function TapAmount({ minor, coin, code, testId, className = '', rounding = 'down' }: TapAmountProps) {
  const { t } = useUiTranslation();
  const format = useAmountFormat();
  const [full, setFull] = useState(false);
  const exact = `${format.amount(minor, coin.decimals)} ${code}`;
  if (!isRounded(minor, coin)) {
    return (
      <span className={className} data-testid={testId}>
        {exact}
      </span>
    );
  }
  return (
    <button
      type="button"
      className={`cw-tap-amount ${className}`}
      data-testid={testId}
      data-full={full}
      title={exact}
      aria-label={full ? exact : t('amount.showFull', { amount: exact })}
      onClick={() => setFull((shown) => !shown)}
    >
      {full ? exact : `${format.display(minor, coin, rounding)} ${code}`}
    </button>
  );
}
