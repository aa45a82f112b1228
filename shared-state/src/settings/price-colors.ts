/** Which colour means "price up": green-up (green rises, red falls) or red-up (the Chinese convention). */
export const PRICE_COLOR_MODES = ['green-up', 'red-up'] as const;
export type PriceColorMode = (typeof PRICE_COLOR_MODES)[number];

export function isPriceColorMode(value: unknown): value is PriceColorMode {
  return typeof value === 'string' && (PRICE_COLOR_MODES as readonly string[]).includes(value);
}

/**
 * The two colours: the app's success and danger colours (host styles.css), dark enough to read as
 * text at WCAG AA (4.5:1) on white and on the page grey.
 */
export const PRICE_GREEN = '#007a52';
export const PRICE_RED = '#d32029';

export interface PriceColors {
  /** CSS colour of a rising price. */
  rise: string;
  /** CSS colour of a falling price. */
  fall: string;
}

/** CSS colours for rise and fall under a colour convention. */
export function priceColors(mode: PriceColorMode): PriceColors {
  return mode === 'red-up' ? { rise: PRICE_RED, fall: PRICE_GREEN } : { rise: PRICE_GREEN, fall: PRICE_RED };
}
