/**
 * Fiat currencies a user may display values in (the same closed list as the
 * server's settings schema). Symbol and decimals (minor-unit digits) are the
 * values Intl.NumberFormat gives for locale 'en' with style 'currency'
 * (currencies.test.ts checks they still agree), kept as data so every
 * browser formats amounts with the same number of minor units.
 */
export const FIAT_CURRENCIES = [
  { code: 'USD', symbol: '$', decimals: 2 },
  { code: 'CNY', symbol: 'CN¥', decimals: 2 },
  { code: 'HKD', symbol: 'HK$', decimals: 2 },
  { code: 'TWD', symbol: 'NT$', decimals: 2 },
  { code: 'EUR', symbol: '€', decimals: 2 },
  { code: 'GBP', symbol: '£', decimals: 2 },
  { code: 'JPY', symbol: '¥', decimals: 0 },
  { code: 'KRW', symbol: '₩', decimals: 0 },
  { code: 'BRL', symbol: 'R$', decimals: 2 },
  { code: 'INR', symbol: '₹', decimals: 2 },
  { code: 'MXN', symbol: 'MX$', decimals: 2 },
  { code: 'ARS', symbol: 'ARS', decimals: 2 },
  { code: 'COP', symbol: 'COP', decimals: 0 },
  { code: 'CLP', symbol: 'CLP', decimals: 0 },
  { code: 'PEN', symbol: 'PEN', decimals: 2 },
  { code: 'RUB', symbol: 'RUB', decimals: 2 },
  { code: 'TRY', symbol: 'TRY', decimals: 2 },
  { code: 'VND', symbol: '₫', decimals: 0 },
  { code: 'THB', symbol: 'THB', decimals: 2 },
  { code: 'IDR', symbol: 'IDR', decimals: 0 },
  { code: 'PHP', symbol: '₱', decimals: 2 },
  { code: 'MYR', symbol: 'MYR', decimals: 2 },
  { code: 'SGD', symbol: 'SGD', decimals: 2 },
  { code: 'AUD', symbol: 'A$', decimals: 2 },
  { code: 'CAD', symbol: 'CA$', decimals: 2 },
  { code: 'CHF', symbol: 'CHF', decimals: 2 },
  { code: 'AED', symbol: 'AED', decimals: 2 },
  { code: 'SAR', symbol: 'SAR', decimals: 2 },
  { code: 'NGN', symbol: 'NGN', decimals: 2 },
  { code: 'ZAR', symbol: 'ZAR', decimals: 2 },
] as const satisfies readonly { code: string; symbol: string; decimals: number }[];

export type FiatCurrencyInfo = (typeof FIAT_CURRENCIES)[number];
export type FiatCurrency = FiatCurrencyInfo['code'];

export const FIAT_CURRENCY_CODES: readonly FiatCurrency[] = FIAT_CURRENCIES.map((c) => c.code);

const byCode = new Map<string, FiatCurrencyInfo>(FIAT_CURRENCIES.map((c) => [c.code, c]));

export function isFiatCurrency(value: unknown): value is FiatCurrency {
  return typeof value === 'string' && byCode.has(value);
}

export function fiatCurrencyInfo(code: FiatCurrency): FiatCurrencyInfo {
  const info = byCode.get(code);
  if (!info) throw new RangeError(`unknown fiat currency ${code}`);
  return info;
}

/** The currency's name in a language (Intl.DisplayNames), e.g. 'US Dollar', '美元'. */
export function fiatCurrencyName(code: FiatCurrency, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'currency' }).of(code) ?? code;
  } catch {
    return code;
  }
}
