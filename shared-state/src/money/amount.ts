/**
 * Amounts on the wire are decimal strings of minor units; the screens show
 * and read decimal text. Conversions are done on bigint and strings only, so
 * an 18-decimal token never loses a digit to a float.
 */

const MAX_INPUT_DIGITS = 78;
/** Grouping loops run at most this many times (78 digits / a group of 1). */
const MAX_GROUPS = 80;

/** "1234500" with 6 decimals -> "1.2345" (trailing zeros dropped). */
export function formatMinor(minor: string | bigint, decimals: number): string {
  const value = typeof minor === 'bigint' ? minor : BigInt(minor);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * "1.5" with 6 decimals -> 1500000n. Null for anything that is not a plain
 * non-negative decimal or has more fraction digits than the coin allows.
 * With a locale, its decimal separator ("," in es) is read as the point too;
 * group separators are not accepted (an amount field holds no grouping).
 */
export function parseAmount(text: string, decimals: number, locale?: string): bigint | null {
  const trimmed = locale ? delocalizeAmount(text, locale).trim() : text.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_INPUT_DIGITS) return null;
  const match = /^(\d*)(?:\.(\d*))?$/.exec(trimmed);
  if (!match || (match[1] === '' && (match[2] ?? '') === '')) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) return null;
  return BigInt(`${match[1] || '0'}${fraction.padEnd(decimals, '0')}`);
}

/** The larger of zero and a - b. */
export function minusOrZero(a: bigint, b: bigint): bigint {
  return a > b ? a - b : 0n;
}

/** How a locale writes numbers, read from Intl once per locale. */
export interface NumberSymbols {
  decimal: string;
  group: string;
  /** Digits in the group next to the point (3), and in the ones further left (3; 2 in en-IN). */
  primaryGroupSize: number;
  secondaryGroupSize: number;
  /** CLDR minimum grouping digits: es writes 1234 but 12.345, so 2 there; 1 elsewhere. */
  minimumGroupingDigits: number;
}

const symbolsByLocale = new Map<string, NumberSymbols>();

function integerLengths(locale: string, value: number): { parts: Intl.NumberFormatPart[]; lengths: number[] } {
  const parts = new Intl.NumberFormat(locale).formatToParts(value);
  return { parts, lengths: parts.filter((p) => p.type === 'integer').map((p) => p.value.length) };
}

/**
 * The decimal and group symbols and the grouping rule of a locale, taken from
 * Intl's own formatting of sample numbers (only the symbols: the amount
 * itself is never handed to Intl, which would go through a float).
 */
export function numberSymbols(locale: string): NumberSymbols {
  const known = symbolsByLocale.get(locale);
  if (known) return known;
  const { parts, lengths } = integerLengths(locale, 1234567.5);
  const small = new Intl.NumberFormat(locale).formatToParts(1234.5);
  const primary = lengths.length > 1 ? (lengths.at(-1) ?? 3) : 3;
  const symbols: NumberSymbols = {
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    group: parts.find((p) => p.type === 'group')?.value ?? ',',
    primaryGroupSize: primary,
    secondaryGroupSize: lengths.length > 2 ? (lengths.at(-2) ?? primary) : primary,
    minimumGroupingDigits: small.some((p) => p.type === 'group') ? 1 : 2,
  };
  if (symbols.decimal === symbols.group) throw new Error(`locale ${locale}: decimal and group symbols are the same`);
  symbolsByLocale.set(locale, symbols);
  return symbols;
}

function groupDigits(whole: string, symbols: NumberSymbols): string {
  if (whole.length < symbols.primaryGroupSize + symbols.minimumGroupingDigits) return whole;
  const groups = [whole.slice(-symbols.primaryGroupSize)];
  let rest = whole.slice(0, -symbols.primaryGroupSize);
  for (let i = 0; rest.length > 0 && i < MAX_GROUPS; i++) {
    groups.unshift(rest.slice(-symbols.secondaryGroupSize));
    rest = rest.slice(0, -symbols.secondaryGroupSize);
  }
  return groups.join(symbols.group);
}

/**
 * A plain decimal string ("-1234.5") written the locale's way ("-1.234,5"
 * in es, "1,234.5" in en and zh). `grouping: false` for text put back into
 * an input field.
 */
export function localizeDecimal(plain: string, locale: string, { grouping = true } = {}): string {
  const symbols = numberSymbols(locale);
  const negative = plain.startsWith('-');
  const [whole = '', fraction] = (negative ? plain.slice(1) : plain).split('.');
  const wholeText = grouping ? groupDigits(whole, symbols) : whole;
  return `${negative ? '-' : ''}${wholeText}${fraction === undefined ? '' : `${symbols.decimal}${fraction}`}`;
}

/** Minor units shown in a locale: ("1234500000", 6, "es") -> "1.234,5". Exact for any size. */
export function formatAmount(minor: string | bigint, decimals: number, locale: string): string {
  return localizeDecimal(formatMinor(minor, decimals), locale);
}

/**
 * Typed text back to a plain decimal: the locale's decimal separator becomes
 * ".", and "." stays a point too (a phone keypad may offer only "."), so
 * "1,5" and "1.5" both read 1.5 in es. Nothing else is changed.
 */
export function delocalizeAmount(text: string, locale: string): string {
  const { decimal } = numberSymbols(locale);
  return decimal === '.' ? text : text.replaceAll(decimal, '.');
}
