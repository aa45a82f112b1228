/**
 * An amount typed or pasted in the user's language, read as a plain decimal string ("1234.5"), never
 * reinterpreted: the locale's decimal separator is the decimal point, its grouping separator is accepted
 * only between whole groups of three digits of the integer part, and anything else that is a separator
 * in the wrong place (a second decimal separator, a grouping separator in the fraction, "1,5" in English)
 * is refused. So a Spanish field showing "1,5" and a typed "." is refused, not read as 15.
 */

export interface LocaleSeparators {
  decimal: string;
  group: string;
}

const separatorsByLocale = new Map<string, LocaleSeparators>();

/** The locale's decimal and grouping separators, as Intl.NumberFormat writes them. */
export function localeSeparators(locale: string): LocaleSeparators {
  const known = separatorsByLocale.get(locale);
  if (known) return known;
  // 12 345 678,5: large enough that every locale groups it (Spanish leaves four digits ungrouped).
  const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(12_345_678.5);
  const found = {
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    group: parts.find((p) => p.type === 'group')?.value ?? ',',
  };
  separatorsByLocale.set(locale, found);
  return found;
}

export type LocaleDecimal = { ok: true; value: string } | { ok: false; reason: 'characters' | 'separator' };

const DIGITS = /^\d*$/;

/** The first group of a grouped number: 1-3 digits, never starting with 0 ("0,001" is no grouping). */
const FIRST_GROUP = /^[1-9]\d{0,2}$/;
const LATER_GROUP = /^\d{3}$/;

/**
 * "1.234.567" with group "." -> "1234567"; null unless the groups are a first group of 1-3 digits not
 * starting with 0, then threes. A leading 0 group ("0,001", "0,500") is refused: read as 1 or 500 it
 * was 1000x what was meant (a pasted amount reaches onChange whole, unchecked key by key).
 */
function ungroup(integer: string, group: string): string | null {
  if (!integer.includes(group)) return DIGITS.test(integer) ? integer : null;
  const groups = integer.split(group);
  const [first = '', ...rest] = groups;
  if (!FIRST_GROUP.test(first) || !rest.every((g) => LATER_GROUP.test(g))) return null;
  return groups.join('');
}

/**
 * Where the point is both the grouping separator and a keypad's decimal point (es), "1.000" or
 * "12.345" alone is a thousand times apart between the two readings (and Intl es never writes 1.000):
 * refused, not guessed. With the decimal comma present ("1.000,5") or more groups ("1.000.000") the
 * point can only be grouping.
 */
function ambiguousPoint(text: string, group: string, keypadPoint: string | null): boolean {
  return keypadPoint !== null && group === keypadPoint && /^\d+\.\d{3}$/.test(text);
}

/** Leading zeros collapse ("007" -> "7", ".5" -> "0.5"); a trailing point stays while typing. */
function tidy(integer: string, fraction: string | undefined): string {
  const whole = integer.replace(/^0+(?=\d)/, '');
  if (fraction === undefined) return whole;
  return `${whole === '' ? '0' : whole}.${fraction}`;
}

/**
 * Reads `raw` (NFKC-normalised, so full-width digits count) in `locale`. Where the decimal separator
 * is a comma, a lone point that cannot be grouping ("1.5", "12.") is read as the decimal point: a
 * phone keypad may offer only ".".
 */
export function parseLocaleDecimal(raw: string, locale: string): LocaleDecimal {
  const text = raw.normalize('NFKC').trim();
  const { decimal, group } = localeSeparators(locale);
  const keypadPoint = decimal !== '.' ? '.' : null;
  for (const char of text) {
    if (!(/\d/.test(char) || char === decimal || char === group || char === keypadPoint))
      return { ok: false, reason: 'characters' };
  }
  const decimalCount = text.split(decimal).length - 1;
  if (decimalCount > 1) return { ok: false, reason: 'separator' };
  if (decimalCount === 1) {
    const [integerText = '', fraction = ''] = text.split(decimal);
    if (!DIGITS.test(fraction)) return { ok: false, reason: 'separator' };
    const integer = ungroup(integerText, group);
    return integer === null ? { ok: false, reason: 'separator' } : { ok: true, value: tidy(integer, fraction) };
  }
  if (ambiguousPoint(text, group, keypadPoint)) return { ok: false, reason: 'separator' };
  const grouped = ungroup(text, group);
  if (grouped !== null) return { ok: true, value: tidy(grouped, undefined) };
  if (keypadPoint !== null && text.split(keypadPoint).length === 2) {
    const [integer = '', fraction = ''] = text.split(keypadPoint);
    // Here the point is also the grouping separator: only digits on either side make it a decimal point.
    if (DIGITS.test(integer) && DIGITS.test(fraction)) return { ok: true, value: tidy(integer, fraction) };
  }
  return { ok: false, reason: 'separator' };
}
