import type { BuyMethod, PayoutKind, RampFiat } from './moonpay/codes.ts';

/**
 * "Third-party payment only in Brazil and India": the country of residence decides the fiat and
 * the methods. Card and bank payments only there; PIX in Brazil, UPI and bank (IMPS) in India.
 */
export interface CountryRules {
  country: 'BR' | 'IN';
  fiat: RampFiat;
  buyMethods: readonly BuyMethod[];
  payoutKinds: readonly PayoutKind[];
}

const rules: Record<'BR' | 'IN', CountryRules> = {
  BR: {
    country: 'BR',
    fiat: 'BRL',
    buyMethods: ['credit_debit_card', 'pix_instant_payment'],
    payoutKinds: ['pix', 'chat_app'],
  },
  IN: {
    country: 'IN',
    fiat: 'INR',
    buyMethods: ['credit_debit_card', 'upi_instant_payment'],
    payoutKinds: ['bank_in', 'upi', 'chat_app'],
  },
};

export function countryRules(country: string): CountryRules | null {
  return country === 'BR' || country === 'IN' ? rules[country] : null;
}
