/**
 * Account field rules, identical to the server's (server/src/modules/auth/rules.ts).
 * Each check returns null when the value is fine, else the broken rule's id;
 * the form shows the translated message `account.rules.<field>.<rule>`.
 */

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 20;
export const EMAIL_MAX = 254;
export const NICKNAME_MAX = 30;
const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,20}$/;
const SIX_DIGITS = /^\d{6}$/;
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;
const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export type PasswordRule = 'required' | 'length' | 'charset' | 'kinds';

/**
 * 8-20 printable ASCII characters (0x21-0x7E: letters, digits and specials,
 * underscore included, no spaces) of at least two kinds among letters,
 * digits and specials. (The server also refuses the most common passwords.)
 */
export function passwordRule(password: string): PasswordRule | null {
  if (password === '') return 'required';
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) return 'length';
  if (!PRINTABLE_ASCII.test(password)) return 'charset';
  const kinds = [/[A-Za-z]/, /\d/, /[^A-Za-z\d]/].filter((kind) => kind.test(password)).length;
  return kinds < 2 ? 'kinds' : null;
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

/** Fund passwords are exactly 6 digits. */
export function fundPasswordRule(fundPassword: string): 'required' | 'format' | null {
  if (fundPassword === '') return 'required';
  return SIX_DIGITS.test(fundPassword) ? null : 'format';
}

export function countryRule(country: string, known: ReadonlySet<string>): 'required' | null {
  return known.has(country) ? null : 'required';
}

export function requiredRule(value: string): 'required' | null {
  return value === '' ? 'required' : null;
}
