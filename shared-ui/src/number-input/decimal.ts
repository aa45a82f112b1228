import { parseLocaleDecimal } from './locale-decimal.ts';

/**
 * Decimal strings for money amounts: never parsed to floats. Values are
 * non-negative decimals like "0", "12", "0.015".
 */

/**
 * Keep what a non-negative amount may contain while typing: digits and one
 * decimal point, at most `decimals` fraction digits (0 = integers only).
 * Leading zeros collapse ("007" -> "7"); a trailing point is kept while typing.
 * A lone comma (e.g. a Spanish keypad) is read as the decimal point; with both
 * commas and points, commas are thousands separators.
 */
export function sanitizeDecimalInput(raw: string, decimals: number): string {
  let text = raw.normalize('NFKC');
  text = text.includes('.') ? text.replaceAll(',', '') : text.replace(',', '.');
  let integer = '';
  let fraction = '';
  let seenPoint = false;
  for (const char of text) {
    if (char >= '0' && char <= '9') {
      if (seenPoint) fraction += char;
      else integer += char;
    } else if (char === '.' && !seenPoint && decimals > 0) {
      seenPoint = true;
    }
  }
  integer = integer.replace(/^0+(?=\d)/, '');
  if (seenPoint && integer === '') integer = '0';
  fraction = fraction.slice(0, Math.max(0, decimals));
  return seenPoint ? `${integer}.${fraction}` : integer;
}

/** A keystroke or paste into an amount field: the amount it makes, or why it is refused. */
export type DecimalInput = { ok: true; value: string } | { ok: false; reason: 'characters' | 'decimals' | 'separator' };

/** Characters an amount may be typed with: digits (any width), a point or comma, spaces. */
const AMOUNT_CHARACTERS = /^[\d.,\s]*$/u;

/**
 * Typed text checked, not repaired: anything but digits, one decimal separator and spaces (a letter,
 * "1e5", a sign) is refused rather than stripped into another number ("1e5" never becomes 15), and
 * so is a fraction longer than the coin has. Otherwise the sanitised amount. With `locale` (what
 * NumberInput passes), separators are read as that language writes them and misplaced ones refused.
 */
export function checkDecimalInput(raw: string, decimals: number, locale?: string): DecimalInput {
  const text = raw.normalize('NFKC');
  if (!AMOUNT_CHARACTERS.test(text)) return { ok: false, reason: 'characters' };
  let value: string;
  if (locale === undefined) value = sanitizeDecimalInput(text, Number.MAX_SAFE_INTEGER);
  else {
    // In the user's language: its separators, each where it belongs, or refused (parseLocaleDecimal).
    const read = parseLocaleDecimal(text, locale);
    if (!read.ok) return read;
    value = read.value;
  }
  const fraction = value.split('.')[1];
  if (fraction !== undefined && (decimals === 0 || fraction.length > decimals))
    return { ok: false, reason: 'decimals' };
  return { ok: true, value };
}

/** "12.5" with 3 decimals -> 12500n. The value must be a sanitised decimal string. */
function scaled(value: string, decimals: number): bigint {
  const [integer = '0', fraction = ''] = value.split('.');
  return BigInt((integer || '0') + fraction.padEnd(decimals, '0').slice(0, decimals));
}

function fractionLength(value: string): number {
  return value.split('.')[1]?.length ?? 0;
}

/** Compare two non-negative decimal strings exactly: -1, 0 or 1. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const decimals = Math.max(fractionLength(a), fractionLength(b));
  const x = scaled(a, decimals);
  const y = scaled(b, decimals);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Drop a trailing point ("5." -> "5"); fraction zeros stay (they are the user's precision). */
export function normalizeDecimal(value: string): string {
  return value.endsWith('.') ? value.slice(0, -1) : value;
}

/** Clamp on blur: empty stays empty; below min -> min; above max -> max. */
export function clampDecimal(value: string, min?: string, max?: string): string {
  const normalized = normalizeDecimal(value);
  if (normalized === '') return '';
  if (min !== undefined && compareDecimal(normalized, min) < 0) return min;
  if (max !== undefined && compareDecimal(normalized, max) > 0) return max;
  return normalized;
}
