import { useTranslation } from '@cw/shared-state/i18n';
import { coinDisplay, useAmountFormat } from '@cw/shared-state/money';
import { NAMESPACE } from '../../../i18n.ts';
import { type ConvertCoinInfo, decimalsOf } from '../utils/coins.ts';
import type { HeldQuote } from '../utils/held-quote.ts';
import * as styles from './convert-page.module.css';

/**
 * A quote as the user agrees to it: what they pay (optional), what they receive, the rate and the
 * fee, and the countdown. `testId` prefixes each value's test id (e.g. `convert-preview-receive`).
 */
export function QuoteRows({
  quote,
  coins,
  left,
  testId,
  showPay = false,
  expiredText,
}: {
  quote: HeldQuote;
  coins: readonly ConvertCoinInfo[];
  /** Seconds until the quote expires. */
  left: number;
  testId: string;
  showPay?: boolean;
  /** Said once the countdown ends. */
  expiredText: string;
}) {
  const { t } = useTranslation(NAMESPACE);
  const { amount, display, rate } = useAmountFormat();
  return (
    <>
      {showPay ? (
        <div className={styles.row}>
          <span className={styles.label}>{t('convert.preview.pay')}</span>
          <span className={styles.strong} data-testid={`${testId}-pay`}>
            {amount(quote.amountMinor, decimalsOf(quote.from, coins))} {quote.from}
          </span>
        </div>
      ) : null}
      <div className={styles.row}>
        <span className={styles.label}>{t('convert.receive')}</span>
        <span className={styles.strong} data-testid={`${testId}-receive`}>
          {display(quote.receiveMinor, coinDisplay(quote.to, coins))} {quote.to}
        </span>
      </div>
      <div className={styles.row}>
        <span className={styles.label}>{t('convert.rate')}</span>
        <span data-testid={`${testId}-rate`}>
          1 {quote.from} ≈ {rate(quote.rate)} {quote.to}
        </span>
      </div>
      <div className={styles.row}>
        <span className={styles.label}>{t('convert.fee')}</span>
        <span data-testid={`${testId}-fee`}>
          {display(quote.feeMinor, coinDisplay(quote.from, coins), 'up')} {quote.from}
        </span>
      </div>
      <div className={`${styles.muted} ${styles.countdown}`} data-testid={`${testId}-countdown`} data-seconds={left}>
        {left > 0 ? t('convert.expiresIn', { seconds: left }) : expiredText}
      </div>
    </>
  );
}
