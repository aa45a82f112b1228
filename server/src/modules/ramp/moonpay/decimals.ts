import { isLosslessNumber, parse } from 'lossless-json';
import { ceilTimes, floorTimes, parseDecimal, type Rational } from '../../prices/rational.ts';

/**
 * MoonPay sends amounts as JSON numbers (`"quoteCurrencyAmount": 0.01854321`). JSON.parse would
 * round them through a float, so answers are read with lossless-json: each number keeps the digits
 * the provider sent and becomes an exact rational, then integer minor units rounded in the user's
 * favour where it matters (what they receive down, what they pay up).
 */

/** Largest answer we read; MoonPay's quote and transaction bodies are a few KB. */
export const ANSWER_CHARS_MAX = 64 * 1024;

export class ProviderAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderAnswerError';
  }
}

export type Json = Record<string, unknown>;

export function parseAnswer(text: string): Json {
  if (text.length > ANSWER_CHARS_MAX) throw new ProviderAnswerError('provider answer too large');
  let value: unknown;
  try {
    value = parse(text);
  } catch {
    throw new ProviderAnswerError('provider answer is not JSON');
  }
  if (typeof value !== 'object' || value === null) throw new ProviderAnswerError('provider answer is not an object');
  return value as Json;
}

/** A non-negative decimal field (number or numeric string) as an exact rational. */
export function decimalOf(obj: Json, key: string): Rational {
  const value = obj[key];
  const text = isLosslessNumber(value) ? value.toString() : typeof value === 'string' ? value : undefined;
  if (text === undefined) throw new ProviderAnswerError(`${key} missing`);
  try {
    return parseDecimal(text);
  } catch {
    throw new ProviderAnswerError(`${key} is not a non-negative decimal`);
  }
}

export function optionalDecimalOf(obj: Json, key: string): Rational | null {
  return obj[key] === undefined || obj[key] === null ? null : decimalOf(obj, key);
}

export function stringOf(obj: Json, key: string): string {
  const value = obj[key];
  if (typeof value !== 'string' || value.length === 0 || value.length > 512) {
    throw new ProviderAnswerError(`${key} missing`);
  }
  return value;
}

export function optionalStringOf(obj: Json, key: string): string | null {
  const value = obj[key];
  return typeof value === 'string' && value.length > 0 && value.length <= 512 ? value : null;
}

export function objectOf(obj: Json, key: string): Json {
  const value = obj[key];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ProviderAnswerError(`${key} missing`);
  }
  return value as Json;
}

export const floorMinor = (value: Rational, decimals: number): bigint => floorTimes(value, 10n ** BigInt(decimals));
export const ceilMinor = (value: Rational, decimals: number): bigint => ceilTimes(value, 10n ** BigInt(decimals));

/** Minor units back to the decimal text an API expects: 12345n, 2 -> "123.45". */
export function minorToDecimal(amountMinor: bigint, decimals: number): string {
  if (decimals === 0) return amountMinor.toString();
  const scale = 10n ** BigInt(decimals);
  const fraction = (amountMinor % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction === '' ? (amountMinor / scale).toString() : `${amountMinor / scale}.${fraction}`;
}
