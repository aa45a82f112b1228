import { passwordMatchesAccount, passwordRule } from '@cw/shared-state/passwords';
import { AppError, type ErrorDetail, ValidationError } from '../../errors/app-error.ts';
import { isCommonPassword } from './common-passwords.ts';
import { countryCodes } from './countries.ts';

export { PASSWORD_MAX, PASSWORD_MIN } from '@cw/shared-state/passwords';
export const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,20}$/;
export const EMAIL_MAX = 254;
export const CODE_PATTERN = /^\d{6}$/;
export const FUND_PASSWORD_PATTERN = /^\d{6}$/;
export const NICKNAME_MAX = 30;

export type PasswordProblem = 'length' | 'charset' | 'kinds' | 'common';

/**
 * The password rule shared with the client (`@cw/shared-state/passwords`: 8-128 printable ASCII
 * characters of at least two kinds) plus, server only, not one of the 10,000 most common passwords.
 */
export function passwordProblem(password: string): PasswordProblem | null {
  const rule = passwordRule(password);
  if (rule !== null) return rule;
  return isCommonPassword(password) ? 'common' : null;
}

/**
 * Throws PASSWORD_MISMATCH, WEAK_PASSWORD, COMMON_PASSWORD, or PASSWORD_MATCHES_ACCOUNT when the
 * password is the account's user name or e-mail (any case).
 */
export function assertNewPassword(
  password: string,
  confirmPassword: string,
  account: { username?: string; email?: string },
): void {
  if (password !== confirmPassword) throw new AppError('PASSWORD_MISMATCH', 'Passwords do not match');
  if (passwordMatchesAccount(password, account)) {
    throw new AppError('PASSWORD_MATCHES_ACCOUNT', 'The password is the user name or e-mail address', {
      details: [{ field: 'password', message: 'equals the user name or e-mail', rule: 'account' }],
    });
  }
  const problem = passwordProblem(password);
  if (problem === 'common') throw new AppError('COMMON_PASSWORD', 'This password is too common');
  if (problem !== null) {
    throw new AppError('WEAK_PASSWORD', `Password breaks the rule: ${problem}`, {
      details: [{ field: 'password', message: `breaks the ${problem} rule`, rule: problem }],
    });
  }
}

/** Lower-cases and trims; the stored form of an e-mail address. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

// Pragmatic address check (the server sends a code to prove the address anyway).
const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isValidEmail(email: string): boolean {
  if (email.length > EMAIL_MAX || !EMAIL_PATTERN.test(email)) return false;
  const [local = ''] = email.split('@');
  return local.length <= 64 && !local.startsWith('.') && !local.endsWith('.') && !local.includes('..');
}

export function isValidUsername(username: string): boolean {
  return USERNAME_PATTERN.test(username);
}

export function isValidCountry(country: string): boolean {
  return countryCodes.has(country);
}

/** Collects field problems; throws one VALIDATION_FAILED with all of them. */
export class FieldChecks {
  private readonly details: ErrorDetail[] = [];

  check(ok: boolean, field: string, rule: string, message: string): this {
    if (!ok) this.details.push({ field, rule, message });
    return this;
  }

  throwIfAny(): void {
    if (this.details.length > 0) {
      throw new ValidationError(
        `Invalid input: ${this.details.map((d) => `${d.field} ${d.message}`).join('; ')}`,
        this.details,
      );
    }
  }
}

export function checkEmail(checks: FieldChecks, email: string, field = 'email'): void {
  checks.check(email.length <= EMAIL_MAX, field, 'length', `must be at most ${EMAIL_MAX} characters`);
  checks.check(email.length > EMAIL_MAX || isValidEmail(email), field, 'format', 'must be an e-mail address');
}

export function checkCode(checks: FieldChecks, code: string, field = 'code'): void {
  checks.check(CODE_PATTERN.test(code), field, 'format', 'must be exactly 6 digits');
}

/** "alice@example.com" -> "al***@example.com" */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return '***';
  const local = email.slice(0, at);
  const shown = local.length <= 2 ? local.slice(0, 1) : local.slice(0, 2);
  return `${shown}***${email.slice(at)}`;
}
