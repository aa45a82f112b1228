import type { CoinCode } from '../catalogue/catalogue.ts';
import { PriceUnavailableError } from './errors.ts';
import { parseDecimal, type Rational } from './rational.ts';

/**
 * Test-only: fixed USD prices of every coin, so outflows (withdrawals, sends, sells) can be valued
 * in their review budget without a price feed. Without them every withdrawal waits for review and
 * every send and sell answers PRICE_UNAVAILABLE (withdrawals/outflow-budget.ts).
 */
const USD: Record<CoinCode, string> = {
  BTC: '60000',
  ETH: '2000',
  USDT: '1',
  USDC: '1',
  TUSD: '1',
  TRX: '0.1',
  BNB: '300',
  DOGE: '0.1',
};

export const testUsdPrices = {
  price(coin: CoinCode, currency: string): Rational {
    const p = currency === 'USD' ? USD[coin] : undefined;
    if (!p) throw new PriceUnavailableError();
    return parseDecimal(p);
  },
};
