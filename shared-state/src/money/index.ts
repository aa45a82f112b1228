/**
 * @cw/shared-state/money: coin amounts as bigint minor units, shown and read in the app
 * language's number format (decimal and group symbols from Intl, never a float), and the
 * display helpers for exchange rates and quote countdowns. Stateless.
 */
export {
  delocalizeAmount,
  formatAmount,
  formatMinor,
  localizeDecimal,
  minusOrZero,
  type NumberSymbols,
  numberSymbols,
  parseAmount,
} from './amount.ts';
export {
  type CatalogueCoinDisplay,
  type CoinDisplay,
  coinDisplay,
  type DisplayRounding,
  displayAmount,
  displayMinor,
  fullPrecision,
  isRounded,
} from './display.ts';
export { countdown, invertRate, RATE_SIGNIFICANT_DIGITS, secondsLeft, shortRate } from './rate.ts';
export { type AmountFormat, useAmountFormat } from './use-amount-format.ts';
