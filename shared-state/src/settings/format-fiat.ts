import { currentLanguage } from '@cw/shared-state/i18n';
import { type FiatCurrency, fiatCurrencyInfo } from './currencies.ts';

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(locale: string, currency: FiatCurrency, decimals: number): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let cached = formatters.get(key);
  if (!cached) {
    cached = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    formatters.set(key, cached);
  }
  return cached;
}

/**
 * The exact decimal string of an amount in minor units, e.g. (12345n, 2) ->
 * '123.45'. Integer arithmetic only, so any bigint keeps every digit.
 */
export function minorToDecimal(amountMinor: bigint, decimals: number): string {
  const negative = amountMinor < 0n;
  const abs = negative ? -amountMinor : amountMinor;
  const sign = negative ? '-' : '';
  if (decimals === 0) return `${sign}${abs}`;
  const scale = 10n ** BigInt(decimals);
  return `${sign}${abs / scale}.${(abs % scale).toString().padStart(decimals, '0')}`;
}

/**
 * Formats an amount given in the currency's minor units (cents for USD, yen
 * for JPY) with Intl.NumberFormat. The amount reaches Intl as an exact decimal
 * string, never as a float. `locale` defaults to the current app language.
 */
export function formatFiat(amountMinor: bigint, currency: FiatCurrency, locale: string = currentLanguage()): string {
  const { decimals } = fiatCurrencyInfo(currency);
  const exact = minorToDecimal(amountMinor, decimals) as Intl.StringNumericLiteral;
  return formatter(locale, currency, decimals).format(exact);
}

/**
 * Formats a decimal string amount (e.g. the quick-buy '100.50') in a
 * currency, keeping up to 2 decimals as typed; the string reaches Intl as an
 * exact decimal, never as a float.
 */
export function formatFiatDecimal(decimal: string, currency: FiatCurrency, locale: string = currentLanguage()): string {
  const { decimals } = fiatCurrencyInfo(currency);
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: decimals,
    maximumFractionDigits: Math.max(decimals, 2),
  }).format(decimal as Intl.StringNumericLiteral);
}
