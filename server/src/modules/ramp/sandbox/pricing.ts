import { ceilTimes, floorTimes, parseDecimal, type Rational, rational, toDecimal } from '../../prices/rational.ts';
import { sandboxUsdRates } from '../../prices/sandbox/fx-rates.ts';

/**
 * The sandbox provider's book: fixed reference prices, a 3.5 % fee (at least 3.99 of the fiat),
 * a flat network fee per currency, and limits, all in exact rationals. Answers carry decimals as
 * JSON numbers the way MoonPay's do (the adapter must read them without floats).
 */
export interface SandboxCurrency {
  code: string;
  coin: string;
  network: string;
  usdPrice: string;
  /** Digits of the amounts it sends (at most the chain's decimals). */
  precision: number;
  /** Network fee in USD taken from a buy. */
  networkFeeUsd: string;
  /** Sandbox rule: sells of this currency find buyers who pay only by chat app. */
  chatAppOnly?: boolean;
  minCrypto: string;
  maxCrypto: string;
}

export const sandboxCurrencies: readonly SandboxCurrency[] = [
  {
    code: 'usdt',
    coin: 'USDT',
    network: 'ethereum',
    usdPrice: '1',
    precision: 6,
    networkFeeUsd: '0.5',
    minCrypto: '5',
    maxCrypto: '20000',
  },
  {
    code: 'usdc',
    coin: 'USDC',
    network: 'ethereum',
    usdPrice: '1',
    precision: 6,
    networkFeeUsd: '0.5',
    minCrypto: '5',
    maxCrypto: '20000',
  },
  {
    code: 'eth',
    coin: 'ETH',
    network: 'ethereum',
    usdPrice: '3200',
    precision: 8,
    networkFeeUsd: '0.8',
    chatAppOnly: true,
    minCrypto: '0.002',
    maxCrypto: '6',
  },
  {
    code: 'usdt_bsc',
    coin: 'USDT',
    network: 'bsc',
    usdPrice: '1',
    precision: 6,
    networkFeeUsd: '0.1',
    minCrypto: '5',
    maxCrypto: '20000',
  },
  {
    code: 'bnb_bsc',
    coin: 'BNB',
    network: 'bsc',
    usdPrice: '610',
    precision: 8,
    networkFeeUsd: '0.1',
    minCrypto: '0.01',
    maxCrypto: '30',
  },
];

export const FEE_PERCENT = parseDecimal('0.035');
const FEE_MIN = parseDecimal('3.99');
/** Fiat limits of a buy, in USD (converted per currency). */
const BUY_MIN_USD = parseDecimal('20');
const BUY_MAX_USD = parseDecimal('10000');

export const findCurrency = (code: string) => sandboxCurrencies.find((c) => c.code === code);

export function usdRate(fiat: string): Rational | null {
  const rate = (sandboxUsdRates as Record<string, string>)[fiat.toUpperCase()];
  return rate ? parseDecimal(rate) : null;
}

const add = (a: Rational, b: Rational) => rational(a.num * b.den + b.num * a.den, a.den * b.den);
const sub = (a: Rational, b: Rational) => rational(a.num * b.den - b.num * a.den, a.den * b.den);
const mul = (a: Rational, b: Rational) => rational(a.num * b.num, a.den * b.den);
const div = (a: Rational, b: Rational) => rational(a.num * b.den, a.den * b.num);
const less = (a: Rational, b: Rational) => a.num * b.den < b.num * a.den;
const cents = (a: Rational) => rational(ceilTimes(a, 100n), 100n);
const floorTo = (a: Rational, digits: number) => rational(floorTimes(a, 10n ** BigInt(digits)), 10n ** BigInt(digits));

/** A fiat amount with its two decimals written out ("250.00"), as a checkout shows it. */
export function fiatText(a: Rational): string {
  const cents = floorTimes(a, 100n);
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}

/** Price of one coin in the fiat. */
const priceIn = (c: SandboxCurrency, fxRate: Rational) => mul(parseDecimal(c.usdPrice), fxRate);

export interface BuyQuoteNumbers {
  baseCurrencyAmount: string;
  quoteCurrencyAmount: string;
  quoteCurrencyPrice: string;
  feeAmount: string;
  extraFeeAmount: string;
  networkFeeAmount: string;
  totalAmount: string;
}

/** Fees included: the fiat amount is the total paid; the coins are what is left after fees. */
export function buyQuote(c: SandboxCurrency, fxRate: Rational, total: Rational): BuyQuoteNumbers | 'too_small' {
  const feePercent = cents(mul(total, FEE_PERCENT));
  const fee = less(feePercent, FEE_MIN) ? FEE_MIN : feePercent;
  const networkFee = cents(mul(parseDecimal(c.networkFeeUsd), fxRate));
  if (!less(add(fee, networkFee), total)) return 'too_small';
  const net = sub(total, add(fee, networkFee));
  const price = priceIn(c, fxRate);
  const crypto = floorTo(div(net, price), c.precision);
  return {
    baseCurrencyAmount: toDecimal(net, 2),
    quoteCurrencyAmount: toDecimal(crypto, c.precision),
    quoteCurrencyPrice: toDecimal(price, 2),
    feeAmount: toDecimal(fee, 2),
    extraFeeAmount: '0',
    networkFeeAmount: toDecimal(networkFee, 2),
    totalAmount: toDecimal(total, 2),
  };
}

/** A sell: the coins at the price, less the fee, floored to the cent. */
export function sellQuote(c: SandboxCurrency, fxRate: Rational, crypto: Rational) {
  const gross = mul(crypto, priceIn(c, fxRate));
  const feePercent = cents(mul(gross, FEE_PERCENT));
  const fee = less(feePercent, FEE_MIN) ? FEE_MIN : feePercent;
  const net = floorTo(less(gross, fee) ? rational(0n) : sub(gross, fee), 2);
  return {
    baseCurrencyAmount: toDecimal(crypto, c.precision),
    quoteCurrencyAmount: toDecimal(net, 2),
    quoteCurrencyPrice: toDecimal(priceIn(c, fxRate), 2),
    feeAmount: toDecimal(fee, 2),
    extraFeeAmount: '0',
  };
}

export function limits(c: SandboxCurrency, fxRate: Rational) {
  return {
    baseCurrency: {
      minBuyAmount: toDecimal(cents(mul(BUY_MIN_USD, fxRate)), 2),
      maxBuyAmount: toDecimal(cents(mul(BUY_MAX_USD, fxRate)), 2),
    },
    quoteCurrency: { code: c.code, minBuyAmount: c.minCrypto, maxBuyAmount: c.maxCrypto },
  };
}
