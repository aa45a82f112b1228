/**
 * Account field rules, identical to the server's (server/src/modules/auth/rules.ts).
 * Each check returns null when the value is fine, else the broken rule's id;
 * the form shows the translated message `account.rule.<field>.<rule>`.
 */

import {
  isGuessableFundPassword,
  passwordMatchesAccount,
  passwordRule as sharedPasswordRule,
} from '@cw/shared-state/passwords';

export { PASSWORD_MAX, PASSWORD_MIN } from '@cw/shared-state/passwords';

/**
 * What a password input takes (the API's field limit): more than PASSWORD_MAX, so a longer password
 * shows the length rule instead of being cut silently (a password manager would keep the full one).
 */
export const PASSWORD_INPUT_MAX = 200;
export const EMAIL_MAX = 254;
export const NICKNAME_MAX = 30;
const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,20}$/;
const SIX_DIGITS = /^\d{6}$/;
const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export type PasswordRule = 'required' | 'length' | 'charset' | 'kinds' | 'account';

/**
 * The shared rule (`@cw/shared-state/passwords`: 8-128 printable ASCII characters of at least two
 * kinds among letters, digits and specials), and not the account's user name or e-mail when they are
 * known. (The server also refuses the most common passwords.)
 */
export function passwordRule(
  password: string,
  account: { username?: string; email?: string } = {},
): PasswordRule | null {
  if (password === '') return 'required';
  const rule = sharedPasswordRule(password);
  if (rule !== null) return rule;
  return passwordMatchesAccount(password, account) ? 'account' : null;
}

export function confirmRule(confirm: string, password: string): 'required' | 'mismatch' | null {
  if (confirm === '') return 'required';
  return confirm === password ? null : 'mismatch';
}

export function usernameRule(username: string): 'required' | 'format' | null {
  if (username === '') return 'required';
  return USERNAME_PATTERN.test(username) ? null : 'format';
}

export function nicknameRule(nickname: string): 'length' | null {
  return [...nickname.trim()].length > NICKNAME_MAX ? 'length' : null;
}

export function isValidEmail(email: string): boolean {
  if (email.length > EMAIL_MAX || !EMAIL_PATTERN.test(email)) return false;
  const [local = ''] = email.split('@');
  return local.length <= 64 && !local.startsWith('.') && !local.endsWith('.') && !local.includes('..');
}

export function emailRule(email: string): 'required' | 'format' | null {
  const value = email.trim();
  if (value === '') return 'required';
  return isValidEmail(value) ? null : 'format';
}

/** Login accepts an e-mail address or a user name. */
export function identifierRule(identifier: string): 'required' | null {
  return identifier.trim() === '' ? 'required' : null;
}

/** E-mail verification codes are exactly 6 digits. */
export function codeRule(code: string): 'required' | 'format' | null {
  if (code === '') return 'required';
  return SIX_DIGITS.test(code) ? null : 'format';
}

/** Fund passwords are exactly 6 digits, and not repeated, sequential or common ones (000000, 123456). */
export function fundPasswordRule(fundPassword: string): 'required' | 'format' | 'guessable' | null {
  if (fundPassword === '') return 'required';
  if (!SIX_DIGITS.test(fundPassword)) return 'format';
  return isGuessableFundPassword(fundPassword) ? 'guessable' : null;
}

export function countryRule(country: string, known: Pick<ReadonlySet<string>, 'has'>): 'required' | null {
  return known.has(country) ? null : 'required';
}

export function requiredRule(value: string): 'required' | null {
  return value === '' ? 'required' : null;
}
