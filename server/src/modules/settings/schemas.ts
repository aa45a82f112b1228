import { type Static, Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';

export const languages = ['zh-CN', 'zh-TW', 'en', 'es'] as const;
export const priceColors = ['green-up', 'red-up'] as const;
export const quickBuyCoins = ['USDT', 'USDC', 'BTC', 'ETH'] as const;
/** Fiat currencies the user may pick to display values in. Extend here (no migration needed). */
export const fiatCurrencies = [
  'USD',
  'CNY',
  'HKD',
  'TWD',
  'EUR',
  'GBP',
  'JPY',
  'KRW',
  'BRL',
  'INR',
  'MXN',
  'ARS',
  'COP',
  'CLP',
  'PEN',
  'RUB',
  'TRY',
  'VND',
  'THB',
  'IDR',
  'PHP',
  'MYR',
  'SGD',
  'AUD',
  'CAD',
  'CHF',
  'AED',
  'SAR',
  'NGN',
  'ZAR',
] as const;

export const fiatAmountPattern = '^\\d{1,9}(\\.\\d{1,2})?$';

export const QuickBuy = Type.Object(
  {
    enabled: Type.Boolean(),
    coin: StringEnum(quickBuyCoins),
    fiatAmount: Type.String({
      pattern: fiatAmountPattern,
      description: 'Decimal string, up to 9 integer digits and 2 decimals, e.g. "100" or "99.50".',
    }),
  },
  { additionalProperties: false },
);

const settingsProperties = {
  language: StringEnum(languages),
  priceColor: StringEnum(priceColors, { description: 'Which colour means "price up".' }),
  fiatCurrency: StringEnum(fiatCurrencies),
  quickBuy: QuickBuy,
};

/** Request body of PUT /api/me/settings (a full replacement). */
export const UserSettingsInput = Type.Object(settingsProperties, { additionalProperties: false });

/** Response of GET/PUT /api/me/settings; a named component in the OpenAPI document. */
export const UserSettings = Type.Object(
  {
    ...settingsProperties,
    saved: Type.Boolean({
      description:
        'false: never saved, these are the defaults (the app keeps what the browser chose, e.g. its language)',
    }),
  },
  { $id: 'UserSettings', additionalProperties: false },
);

export type UserSettings = Static<typeof UserSettingsInput>;
export type StoredUserSettings = UserSettings & { saved: boolean };

export const defaultSettings: UserSettings = {
  language: 'zh-CN',
  priceColor: 'green-up',
  fiatCurrency: 'USD',
  quickBuy: { enabled: false, coin: 'USDT', fiatAmount: '100.00' },
};
