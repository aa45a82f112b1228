/**
 * Password rules shared by the screens and the server (OWASP ASVS 5.0, V6), so a form refuses exactly
 * what the API refuses. The server adds what needs its data: the 10,000 most common passwords.
 */

/** The specification's minimum; the maximum leaves room for pass phrases and password managers. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

export type PasswordRule = 'length' | 'charset' | 'kinds';

/**
 * 8-128 printable ASCII characters (0x21-0x7E: letters, digits and specials, no spaces) of at least
 * two kinds among letters, digits and specials. Null when the password keeps the rule.
 */
export function passwordRule(password: string): PasswordRule | null {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) return 'length';
  if (!PRINTABLE_ASCII.test(password)) return 'charset';
  const kinds = [/[A-Za-z]/, /\d/, /[^A-Za-z\d]/].filter((kind) => kind.test(password)).length;
  return kinds < 2 ? 'kinds' : null;
}

/** A login password that is the account's user name or e-mail address (any case) is the first guess. */
export function passwordMatchesAccount(password: string, account: { username?: string; email?: string }): boolean {
  const guess = password.toLowerCase();
  return [account.username, account.email].some((name) => name !== undefined && name.trim().toLowerCase() === guess);
}

/** PINs people pick most (published PIN-frequency studies), beyond the patterns below. */
const COMMON_PINS: ReadonlySet<string> = new Set([
  '123123',
  '112233',
  '121212',
  '123321',
  '147258',
  '159753',
  '520520',
  '520131',
  '789456',
  '147369',
  '159357',
  '131313',
  '101010',
  '696969',
  '112358',
  '098765',
]);

/**
 * A 6-digit fund password an attacker tries first: one digit repeated (000000), a run up or down
 * (123456, 654321, 890123 wraps too), a repeated pair or triple (121212, 123123), or a common PIN.
 */
export function isGuessableFundPassword(pin: string): boolean {
  if (!/^\d{6}$/.test(pin)) return false;
  const digits = [...pin].map(Number);
  const steps = digits.slice(1).map((d, i) => (d - (digits[i] as number) + 10) % 10);
  if (steps.every((s) => s === steps[0] && (s === 0 || s === 1 || s === 9))) return true;
  if (pin.slice(0, 2).repeat(3) === pin || pin.slice(0, 3).repeat(2) === pin) return true;
  return COMMON_PINS.has(pin);
}
