/**
 * The fiat value of an amount in the user's price mode. Prices
 * (`@cw/shared-state/prices`) are not available yet, so nothing is shown
 * rather than a made-up figure.
 */
export function FiatValue(_props: { coin: string; minor: string; decimals: number }) {
  return null;
}
