import type { PriceCurrency } from '../price-source.ts';

/**
 * Sandbox exchange rates: units of each fiat currency per 1 USD, as decimal text (fixed, roughly the
 * market's; the sandbox moves coin prices, not currencies). Every currency the settings offer is here.
 */
export const sandboxUsdRates: Record<PriceCurrency, string> = {
  USD: '1',
  CNY: '7.10',
  HKD: '7.78',
  TWD: '31.00',
  EUR: '0.86',
  GBP: '0.76',
  JPY: '155',
  KRW: '1460',
  BRL: '5.33',
  INR: '88.70',
  MXN: '18.40',
  ARS: '1420',
  COP: '3750',
  CLP: '930',
  PEN: '3.37',
  RUB: '80.50',
  TRY: '42.30',
  VND: '26300',
  THB: '32.40',
  IDR: '16700',
  PHP: '59.00',
  MYR: '4.14',
  SGD: '1.30',
  AUD: '1.54',
  CAD: '1.41',
  CHF: '0.80',
  AED: '3.6725',
  SAR: '3.75',
  NGN: '1440',
  ZAR: '17.30',
};
