import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@cw/shared-state/i18n';
import { type FiatCurrency, isFiatCurrency } from './currencies.ts';
import { isPriceColorMode, type PriceColorMode } from './price-colors.ts';
import { checkFiatAmount, isQuickBuyCoin, type QuickBuySettings } from './quick-buy.ts';

/** The user's settings; the same shape as GET/PUT /api/me/settings. */
export interface Settings {
  language: Language;
  priceColor: PriceColorMode;
  fiatCurrency: FiatCurrency;
  quickBuy: QuickBuySettings;
}

/** The server's defaults (server/src/modules/settings/schemas.ts). */
export const DEFAULT_SETTINGS: Settings = {
  language: DEFAULT_LANGUAGE,
  priceColor: 'green-up',
  fiatCurrency: 'USD',
  quickBuy: { enabled: false, coin: 'USDT', fiatAmount: '100.00' },
};

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function validAmount(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const check = checkFiatAmount(value);
  return check.ok ? check.value : undefined;
}

/**
 * Settings from untrusted data (a server response, old local storage): each
 * valid field is kept, anything missing or invalid falls back to `fallback`.
 */
export function coerceSettings(value: unknown, fallback: Settings = DEFAULT_SETTINGS): Settings {
  const raw = record(value);
  const quickBuy = record(raw.quickBuy);
  return {
    language: isLanguage(raw.language) ? raw.language : fallback.language,
    priceColor: isPriceColorMode(raw.priceColor) ? raw.priceColor : fallback.priceColor,
    fiatCurrency: isFiatCurrency(raw.fiatCurrency) ? raw.fiatCurrency : fallback.fiatCurrency,
    quickBuy: {
      enabled: typeof quickBuy.enabled === 'boolean' ? quickBuy.enabled : fallback.quickBuy.enabled,
      coin: isQuickBuyCoin(quickBuy.coin) ? quickBuy.coin : fallback.quickBuy.coin,
      fiatAmount: validAmount(quickBuy.fiatAmount) ?? fallback.quickBuy.fiatAmount,
    },
  };
}

/** Just the Settings fields of a larger object (e.g. the store state). */
export function pickSettings(state: Settings): Settings {
  return {
    language: state.language,
    priceColor: state.priceColor,
    fiatCurrency: state.fiatCurrency,
    quickBuy: { ...state.quickBuy },
  };
}
