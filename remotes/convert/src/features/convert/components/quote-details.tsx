import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { coinDisplay, useAmountFormat } from '@cw/shared-state/money';
import { Tag } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { RateText } from '../../../lib/rate-text.tsx';
import { useNow } from '../../../lib/use-now.ts';
import type { ConvertFormState } from '../hooks/use-convert-form.ts';
import type { ConvertCoinInfo } from '../utils/coins.ts';
import * as styles from './convert-page.module.css';

/** The quote's countdown; at 0 it says the rate will be refreshed on confirm. */
function Countdown({ expiresAtMs }: { expiresAtMs: number }) {
  const { t } = useTranslation(NAMESPACE);
  const now = useNow();
  const left = Math.max(0, Math.ceil((expiresAtMs - now) / 1000));
  return (
    <div
      className={`${styles.muted} ${styles.countdown} ${left === 0 ? styles.expired : ''}`}
      data-testid="convert-countdown"
      data-seconds={left}
    >
      {left > 0 ? t('convert.expiresIn', { seconds: left }) : t('convert.expiredHint')}
    </div>
  );
}

/** Rate (sandbox-labelled), fee (rounded up), limits, countdown and why the form cannot go on. */
export function QuoteDetails({ form, coins }: { form: ConvertFormState; coins: readonly ConvertCoinInfo[] }) {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const { display } = useAmountFormat();
  const { from, to, quote, range, quoteQuery } = form;
  const fromDisplay = coinDisplay(from, coins);
  const limits =
    quote || range
      ? `${display(quote?.minMinor ?? range?.min ?? '0', fromDisplay, 'up')} - ${display(quote?.maxMinor ?? range?.max ?? '0', fromDisplay)} ${from}`
      : '--';
  return (
    <div className={`${styles.card} ${styles.details}`} data-testid="convert-quote">
      <div className={styles.row}>
        <span className={styles.label}>{t('convert.rate')}</span>
        <span>
          {quote?.source === 'sandbox' ? (
            <Tag color="warning" fill="outline" data-testid="convert-rate-sandbox">
              {t('convert.sandbox')}
            </Tag>
          ) : null}{' '}
          {quote ? <RateText from={from} to={to} rate={quote.rate} testId="convert-rate" /> : '--'}
        </span>
      </div>
      <div className={styles.row}>
        <span className={styles.label}>{t('convert.fee')}</span>
        <span data-testid="convert-fee">{quote ? `${display(quote.feeMinor, fromDisplay, 'up')} ${from}` : '--'}</span>
      </div>
      <div className={styles.row}>
        <span className={styles.label}>{t('convert.limits')}</span>
        <span data-testid="convert-limits">{limits}</span>
      </div>
      {quote ? <Countdown expiresAtMs={quote.expiresAtMs} /> : null}
      {quoteQuery.isError ? (
        <p className={styles.error} data-testid="convert-quote-error">
          {errorMessage(quoteQuery.error)}
        </p>
      ) : null}
      {form.overBalance ? <p className={styles.error}>{t('convert.overBalance')}</p> : null}
      {quote && quote.rate === '1' && quote.feeMinor === '0' ? (
        <span className={styles.muted} data-testid="convert-stable-note">
          {t('convert.stableNote')}
        </span>
      ) : null}
    </div>
  );
}
