import { FIAT_CURRENCIES, type FiatCurrency, fiatCurrencyName } from '@cw/shared-state/settings';

export interface CurrencyOption {
  code: FiatCurrency;
  symbol: string;
  /** Name in the current language (Intl.DisplayNames). */
  name: string;
}

/** The currencies with names in `locale`. */
export function currencyOptions(locale: string): CurrencyOption[] {
  return FIAT_CURRENCIES.map(({ code, symbol }) => ({ code, symbol, name: fiatCurrencyName(code, locale) }));
}

/** Options whose code, symbol or name contains the query (case- and accent-insensitive). */
export function filterCurrencies(options: CurrencyOption[], query: string, locale: string): CurrencyOption[] {
  const fold = (text: string) =>
    text
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLocaleLowerCase(locale);
  const needle = fold(query.trim());
  if (needle === '') return options;
  return options.filter((o) => [o.code, o.symbol, o.name].some((text) => fold(text).includes(needle)));
}
