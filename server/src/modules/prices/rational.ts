/**
 * Exact non-negative rationals over bigint, for prices and rates. A price arrives as a decimal
 * string ("67187.33") and stays exact: no float ever holds money or a rate. Denominators are kept
 * positive; values are reduced so equal rationals compare equal field by field.
 */
export interface Rational {
  readonly num: bigint;
  /** Always > 0. */
  readonly den: bigint;
}

/** Digits of a decimal price text we accept: enough for any real price, bounded so parsing is cheap. */
const DECIMAL_TEXT = /^(\d{1,30})(?:\.(\d{1,30}))?$/;
/** Scientific notation as JSON may write it (e.g. 1.5e-7 for a tiny price); exponent bounded. */
const SCIENTIFIC_TEXT = /^(\d{1,30})(?:\.(\d{1,30}))?[eE]([+-]?\d{1,2})$/;

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b;
  // Euclid on bigints: the number of steps is logarithmic in the operands.
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export function rational(num: bigint, den = 1n): Rational {
  if (den <= 0n) throw new Error('rational: denominator must be positive');
  if (num < 0n) throw new Error('rational: negative values are not prices');
  const g = gcd(num, den);
  return g > 1n ? { num: num / g, den: den / g } : { num, den };
}

/** "67187.33" -> 6718733/100; also accepts JSON's "1.5e-7". Throws on anything else. */
export function parseDecimal(text: string): Rational {
  const plain = DECIMAL_TEXT.exec(text);
  if (plain) {
    const fraction = plain[2] ?? '';
    return rational(BigInt(`${plain[1]}${fraction}`), 10n ** BigInt(fraction.length));
  }
  const sci = SCIENTIFIC_TEXT.exec(text);
  if (sci) {
    const fraction = sci[2] ?? '';
    const exponent = Number(sci[3]) - fraction.length;
    const digits = BigInt(`${sci[1]}${fraction}`);
    return exponent >= 0 ? rational(digits * 10n ** BigInt(exponent)) : rational(digits, 10n ** BigInt(-exponent));
  }
  throw new Error(`not a decimal number: ${JSON.stringify(text.slice(0, 40))}`);
}

export const mul = (a: Rational, b: Rational): Rational => rational(a.num * b.num, a.den * b.den);

export function div(a: Rational, b: Rational): Rational {
  if (b.num === 0n) throw new Error('rational: division by zero');
  return rational(a.num * b.den, a.den * b.num);
}

export const isZero = (a: Rational) => a.num === 0n;

export function compare(a: Rational, b: Rational): -1 | 0 | 1 {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** floor(value * n) for an integer n >= 0. */
export const floorTimes = (value: Rational, n: bigint): bigint => (value.num * n) / value.den;

/** ceil(value * n) for an integer n >= 0. */
export function ceilTimes(value: Rational, n: bigint): bigint {
  const product = value.num * n;
  return (product + value.den - 1n) / value.den;
}

/** Decimal text rounded DOWN to at most `digits` fraction digits, trailing zeros dropped: 1/3 -> "0.333333". */
export function toDecimal(value: Rational, digits: number): string {
  const scale = 10n ** BigInt(digits);
  const scaled = floorTimes(value, scale);
  const whole = scaled / scale;
  const fraction = (scaled % scale).toString().padStart(digits, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}
