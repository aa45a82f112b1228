import type { CoinCode, NetworkCode } from '../../catalogue/catalogue.ts';

/** MoonPay currency codes of the (coin, network) pairs the ramp offers (their docs' `code` values). */
const currencyCodes: Record<string, string> = {
  'ETH/ethereum': 'eth',
  'USDT/ethereum': 'usdt',
  'USDC/ethereum': 'usdc',
  'BNB/bsc': 'bnb_bsc',
  'USDT/bsc': 'usdt_bsc',
  'USDC/bsc': 'usdc_bsc',
};

export function moonPayCurrencyCode(coin: CoinCode, network: NetworkCode): string | undefined {
  return currencyCodes[`${coin}/${network}`];
}

export const rampFiats = ['BRL', 'INR'] as const;
export type RampFiat = (typeof rampFiats)[number];

/** Both fiats have two fraction digits (centavos, paise). */
export const FIAT_DECIMALS = 2;

/** MoonPay's payment method ids for buys, and the payout kinds of our payment methods for sells. */
export const buyMethods = ['credit_debit_card', 'pix_instant_payment', 'upi_instant_payment'] as const;
export type BuyMethod = (typeof buyMethods)[number];
export const payoutKinds = ['bank_in', 'pix', 'upi', 'chat_app'] as const;
export type PayoutKind = (typeof payoutKinds)[number];
