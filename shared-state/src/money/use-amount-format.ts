import { DEFAULT_LANGUAGE, isLanguage, useTranslation } from '@cw/shared-state/i18n';
import { useMemo } from 'react';
import { formatAmount, localizeDecimal } from './amount.ts';
import { type CoinDisplay, type DisplayRounding, displayAmount } from './display.ts';
import { shortRate } from './rate.ts';

export interface AmountFormat {
  /** The app language, e.g. "es": decides the decimal and group separators. */
  locale: string;
  /** Minor units as the reader expects them: "1.234,5" in es, "1,234.5" in en and zh. */
  amount: (minor: string | bigint, decimals: number) => string;
  /**
   * Minor units at the coin's display precision (rounded down): balances and amounts on lists and
   * forms. `amount` stays for full precision (detail screens, copy, inputs).
   */
  display: (minor: string | bigint, coin: CoinDisplay, rounding?: DisplayRounding) => string;
  /** An exchange rate ("0.00111341465") shortened by shortRate and written the same way. */
  rate: (rate: string) => string;
}

/** Amount formatting in the current app language; re-renders when the language changes. */
export function useAmountFormat(): AmountFormat {
  const { i18n } = useTranslation();
  const locale = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  return useMemo(
    () => ({
      locale,
      amount: (minor: string | bigint, decimals: number) => formatAmount(minor, decimals, locale),
      display: (minor: string | bigint, coin: CoinDisplay, rounding: DisplayRounding = 'down') =>
        displayAmount(minor, coin, locale, rounding),
      rate: (rate: string) => localizeDecimal(shortRate(rate), locale),
    }),
    [locale],
  );
}
