/** Which colour means "price up": green-up (green rises, red falls) or red-up (the Chinese convention). */
export const PRICE_COLOR_MODES = ['green-up', 'red-up'] as const;
export type PriceColorMode = (typeof PRICE_COLOR_MODES)[number];

export function isPriceColorMode(value: unknown): value is PriceColorMode {
  return typeof value === 'string' && (PRICE_COLOR_MODES as readonly string[]).includes(value);
}

/** The two colours, matching the mobile UI kit's success and danger colours. */
export const PRICE_GREEN = '#00b578';
export const PRICE_RED = '#ff3141';

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
