import { describe, expect, it } from 'vitest';
import { commonPasswords, isCommonPassword } from './common-passwords.ts';
import {
  assertNewPassword,
  isValidCountry,
  isValidEmail,
  isValidUsername,
  maskEmail,
  normalizeEmail,
  passwordProblem,
} from './rules.ts';

describe('password rule', () => {
  it.each([
    ['Abcdefg1', null],
    ['abc_defg', null], // letters + underscore (a special)
    ['12345678!', null],
    ['Zz9~Zz9~Zz9~Zz9~Zz9~', null], // 20 characters
    ['Abcdefghij1234567890x', null], // 21: more than the old 20-character limit
    [`Zz9~${'x'.repeat(124)}`, null], // 128 characters
    ['Abcdef1', 'length'],
    [`Zz9~${'x'.repeat(125)}`, 'length'], // 129
    ['Abcd efg1', 'charset'],
    ['Abcdéfg12', 'charset'],
    ['abcdefghij', 'kinds'],
    ['1234567890', 'kinds'],
    ['!@#$%^&*()', 'kinds'],
    ['password1', 'common'],
    ['PASSWORD1', 'common'], // case-insensitive
    ['qwerty123', 'common'],
  ])('%s -> %s', (password, problem) => {
    expect(passwordProblem(password)).toBe(problem);
  });

  it('maps problems to error codes', () => {
    const account = { username: 'alice_01', email: 'alice@example.com' };
    expect(() => assertNewPassword('Abcdefg1', 'Abcdefg2', account)).toThrow(
      expect.objectContaining({ code: 'PASSWORD_MISMATCH' }),
    );
    expect(() => assertNewPassword('short', 'short', account)).toThrow(
      expect.objectContaining({ code: 'WEAK_PASSWORD' }),
    );
    expect(() => assertNewPassword('iloveyou1', 'iloveyou1', account)).toThrow(
      expect.objectContaining({ code: 'COMMON_PASSWORD' }),
    );
    expect(() => assertNewPassword('ALICE_01', 'ALICE_01', account)).toThrow(
      expect.objectContaining({ code: 'PASSWORD_MATCHES_ACCOUNT' }),
    );
    expect(() => assertNewPassword('Alice@Example.com', 'Alice@Example.com', account)).toThrow(
      expect.objectContaining({ code: 'PASSWORD_MATCHES_ACCOUNT' }),
    );
    expect(() => assertNewPassword('Good-Pass-42', 'Good-Pass-42', account)).not.toThrow();
  });

  it('loads the 10,000 most common passwords once', () => {
    expect(commonPasswords().size).toBeGreaterThan(9_900);
    expect(commonPasswords()).toBe(commonPasswords());
    expect(isCommonPassword('123456')).toBe(true);
    expect(isCommonPassword('Tr1cky-Pass!')).toBe(false);
  });
});

describe('user name, e-mail, country', () => {
  it.each([
    ['bob', true],
    ['Bob_The_Builder_2024', true],
    ['bo', false],
    ['a'.repeat(21), false],
    ['bob smith', false],
    ['bob-smith', false],
    ['béb', false],
  ])('user name %s -> %s', (name, ok) => {
    expect(isValidUsername(name)).toBe(ok);
  });

  it.each([
    ['a@b.co', true],
    ['first.last+tag@sub.example.com', true],
    ['no-at-sign', false],
    ['two@@example.com', false],
    ['a@localhost', false],
    ['.dot@example.com', false],
    ['a..b@example.com', false],
    [`${'a'.repeat(65)}@example.com`, false],
    [`${'a'.repeat(60)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`, false], // > 254
  ])('e-mail %s -> %s', (email, ok) => {
    expect(isValidEmail(email)).toBe(ok);
  });

  it('stores e-mails lower-cased and masks them', () => {
    expect(normalizeEmail('  Alice@Example.COM ')).toBe('alice@example.com');
    expect(maskEmail('alice@example.com')).toBe('al***@example.com');
    expect(maskEmail('a@example.com')).toBe('a***@example.com');
  });

  it('accepts ISO 3166-1 alpha-2 codes only', () => {
    expect(isValidCountry('CN')).toBe(true);
    expect(isValidCountry('TW')).toBe(true);
    expect(isValidCountry('ES')).toBe(true);
    expect(isValidCountry('UK')).toBe(false);
    expect(isValidCountry('XX')).toBe(false);
    expect(isValidCountry('cn')).toBe(false);
  });
});
