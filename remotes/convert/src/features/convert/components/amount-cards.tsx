import { useTranslation } from '@cw/shared-state/i18n';
import { coinDisplay, delocalizeAmount, formatMinor, localizeDecimal, useAmountFormat } from '@cw/shared-state/money';
import { CoinIcon } from '@cw/shared-ui/coin-icon';
import { NumberInput } from '@cw/shared-ui/number-input';
import { NAMESPACE } from '../../../i18n.ts';
import type { ConvertFormState } from '../hooks/use-convert-form.ts';
import type { ConvertCoinInfo } from '../utils/coins.ts';
import * as styles from './convert-page.module.css';
import { FiatLine } from './fiat-line.tsx';

interface CardProps {
  form: ConvertFormState;
  coins: readonly ConvertCoinInfo[];
  /** Opens the coin picker for one side. */
  onPick: (side: 'from' | 'to') => void;
}

/** "You give": the coin, the amount typed, its fiat value; tapping the balance types all of it. */
export function GiveCard({ form, coins, onPick }: CardProps) {
  const { t } = useTranslation(NAMESPACE);
  const { display, locale } = useAmountFormat();
  const { from, decimals } = form;
  return (
    <div className={styles.card}>
      <div className={styles.row}>
        <span className={styles.label}>{t('convert.give')}</span>
        {form.signedIn ? (
          <button
            type="button"
            className={styles.label}
            style={{ border: 0, background: 'none', cursor: 'pointer' }}
            onClick={() => form.setAmountText(formatMinor(form.availableInInputDigits, decimals))}
            data-testid="convert-available"
          >
            {t('convert.available', { amount: display(form.available, coinDisplay(from, coins)), coin: from })}
          </button>
        ) : null}
      </div>
      <div className={styles.row}>
        <button type="button" className={styles.coinButton} onClick={() => onPick('from')} data-testid="convert-from">
          <CoinIcon coin={from} size={22} />
          {from} ▾
        </button>
        <NumberInput
          className={styles.amount}
          value={localizeDecimal(form.amountText, locale, { grouping: false })}
          onChange={(next) => form.setAmountText(delocalizeAmount(next, locale))}
          decimals={decimals}
          placeholder={t('convert.amountPlaceholder')}
          aria-label={t('convert.give')}
          data-testid="convert-amount"
        />
      </div>
      {form.scaledMinor !== null ? (
        <FiatLine asset={from} amountMinor={form.scaledMinor} testId="convert-from-fiat" />
      ) : null}
    </div>
  );
}

/** "You get": the coin and what the quote on screen gives. */
export function GetCard({ form, coins, onPick }: CardProps) {
  const { t } = useTranslation(NAMESPACE);
  const { display } = useAmountFormat();
  const { to, quote } = form;
  return (
    <div className={styles.card}>
      <div className={styles.row}>
        <span className={styles.label}>{t('convert.get')}</span>
      </div>
      <div className={styles.row}>
        <button type="button" className={styles.coinButton} onClick={() => onPick('to')} data-testid="convert-to">
          <CoinIcon coin={to} size={22} />
          {to} ▾
        </button>
        <span className={styles.receive} data-testid="convert-receive">
          {quote ? display(quote.receiveMinor, coinDisplay(to, coins)) : '--'}
        </span>
      </div>
      {quote ? <FiatLine asset={to} amountMinor={BigInt(quote.receiveMinor)} testId="convert-to-fiat" /> : null}
    </div>
  );
}
