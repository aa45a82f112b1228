/**
 * @cw/shared-state/settings: the user's settings store and the helpers other
 * apps use to show prices (rise/fall colours, fiat formatting).
 *
 * Other shared-state modules are imported by package name (never '../i18n'),
 * so a remote bundling this module still resolves i18n, session and api to
 * the federation's shared singletons.
 */
export {
  FIAT_CURRENCIES,
  FIAT_CURRENCY_CODES,
  type FiatCurrency,
  type FiatCurrencyInfo,
  fiatCurrencyInfo,
  fiatCurrencyName,
  isFiatCurrency,
} from './currencies.ts';
export { formatFiat, formatFiatDecimal, minorToDecimal } from './format-fiat.ts';
export {
  isPriceColorMode,
  PRICE_COLOR_MODES,
  PRICE_GREEN,
  PRICE_RED,
  type PriceColorMode,
  type PriceColors,
  priceColors,
} from './price-colors.ts';
export {
  checkFiatAmount,
  FIAT_AMOUNT_PATTERN,
  type FiatAmountCheck,
  type FiatAmountError,
  isQuickBuyCoin,
  QUICK_BUY_COINS,
  QUICK_BUY_MAX_AMOUNT,
  QUICK_BUY_MIN_AMOUNT,
  type QuickBuyCoin,
  type QuickBuySettings,
} from './quick-buy.ts';
export { coerceSettings, DEFAULT_SETTINGS, type Settings } from './schema.ts';
export {
  SETTINGS_STORAGE_KEY,
  type SettingsSource,
  type SettingsState,
  type SettingsSyncStatus,
  syncSettings,
  usePriceColors,
  useSettings,
} from './store.ts';
