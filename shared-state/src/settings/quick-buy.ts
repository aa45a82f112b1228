import { minorToDecimal } from './format-fiat.ts';

/** Coins the quick-buy button can buy (the server's closed list). */
export const QUICK_BUY_COINS = ['USDT', 'USDC', 'BTC', 'ETH'] as const;
export type QuickBuyCoin = (typeof QUICK_BUY_COINS)[number];

export function isQuickBuyCoin(value: unknown): value is QuickBuyCoin {
  return typeof value === 'string' && (QUICK_BUY_COINS as readonly string[]).includes(value);
}

export interface QuickBuySettings {
  enabled: boolean;
  coin: QuickBuyCoin;
  /** Fiat amount per quick buy, a decimal string normalised to 2 decimals, e.g. '100.00'. */
  fiatAmount: string;
}

/** The server's rule: up to 9 integer digits and up to 2 decimals. */
export const FIAT_AMOUNT_PATTERN = /^\d{1,9}(\.\d{1,2})?$/;
/** Smallest and largest quick-buy amounts, as decimal strings. */
export const QUICK_BUY_MIN_AMOUNT = '1.00';
export const QUICK_BUY_MAX_AMOUNT = '999999999.99';

const MIN_CENTS = 100n;

export type FiatAmountError = 'required' | 'format' | 'tooSmall' | 'tooLarge';
export type FiatAmountCheck = { ok: true; value: string } | { ok: false; error: FiatAmountError };

/** Cents of a decimal string already matching /^\d+(\.\d{1,2})?$/ (integer arithmetic only). */
function toCents(decimal: string): bigint {
  const [whole = '0', fraction = ''] = decimal.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
}

/**
 * Validates a typed quick-buy amount and normalises it to 2 decimals
 * ('  0100.5 ' -> '100.50'). Errors name what is wrong so the screen can show
 * a translated message.
 */
export function checkFiatAmount(input: string): FiatAmountCheck {
  const trimmed = input.trim();
  if (trimmed === '') return { ok: false, error: 'required' };
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed)) return { ok: false, error: 'format' };
  const cents = toCents(trimmed);
  if (cents < MIN_CENTS) return { ok: false, error: 'tooSmall' };
  const value = minorToDecimal(cents, 2);
  if (!FIAT_AMOUNT_PATTERN.test(value)) return { ok: false, error: 'tooLarge' };
  return { ok: true, value };
}
