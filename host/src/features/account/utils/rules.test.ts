import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  codeRule,
  confirmRule,
  emailRule,
  fundPasswordRule,
  nicknameRule,
  passwordRule,
  usernameRule,
} from './rules.ts';

describe('passwordRule', () => {
  it.each([
    ['', 'required'],
    ['abc123', 'length'],
    ['abcdefg1', null],
    ['a1'.repeat(10), null],
    [`${'a1'.repeat(10)}x`, null], // 21: past the old 20-character limit
    ['a1'.repeat(64), null], // 128
    [`${'a1'.repeat(64)}x`, 'length'],
    ['abcd 1234', 'charset'],
    ['pässwörd1', 'charset'],
    ['abcdefgh', 'kinds'],
    ['12345678', 'kinds'],
    ['!@#$%^&*', 'kinds'],
    ['________', 'kinds'],
    ['abcdefg_', null],
    ['1234567!', null],
  ])('%j -> %s', (password, rule) => {
    expect(passwordRule(password)).toBe(rule);
  });

  it('refuses the user name or e-mail as the password, in any case', () => {
    const account = { username: 'alice_01', email: 'alice01@example.com' };
    expect(passwordRule('ALICE_01', account)).toBe('account');
    expect(passwordRule('Alice01@Example.com', account)).toBe('account');
    expect(passwordRule('alice_012', account)).toBeNull();
  });

  it('accepts every 8-20 character printable ASCII password with letters and digits', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z]{1,10}[0-9]{1,10}$/).filter((s) => s.length >= 8),
        (pw) => {
          expect(passwordRule(pw)).toBeNull();
        },
      ),
    );
  });
});

describe('other fields', () => {
  it('confirmation must match', () => {
    expect(confirmRule('', 'x')).toBe('required');
    expect(confirmRule('abc', 'abd')).toBe('mismatch');
    expect(confirmRule('abc', 'abc')).toBeNull();
  });

  it('user name: 3-20 letters, digits, underscore', () => {
    expect(usernameRule('')).toBe('required');
    expect(usernameRule('ab')).toBe('format');
    expect(usernameRule('abc')).toBeNull();
    expect(usernameRule('a_B_9'.repeat(4))).toBeNull();
    expect(usernameRule('a'.repeat(21))).toBe('format');
    expect(usernameRule('bad-name')).toBe('format');
    expect(usernameRule('中文名字')).toBe('format');
  });

  it('nickname is optional, at most 30 characters', () => {
    expect(nicknameRule('')).toBeNull();
    expect(nicknameRule('小明'.repeat(15))).toBeNull();
    expect(nicknameRule('x'.repeat(31))).toBe('length');
  });

  it('e-mail must be valid and at most 254 characters', () => {
    expect(emailRule('')).toBe('required');
    expect(emailRule('alice@example.com')).toBeNull();
    expect(emailRule(' alice@example.com ')).toBeNull();
    expect(emailRule('alice@')).toBe('format');
    expect(emailRule('alice@example')).toBe('format');
    expect(emailRule('al..ice@example.com')).toBe('format');
    expect(emailRule(`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`)).toBe('format');
  });

  it('codes and fund passwords are exactly 6 digits', () => {
    for (const rule of [codeRule, fundPasswordRule]) {
      expect(rule('')).toBe('required');
      expect(rule('12345')).toBe('format');
      expect(rule('1234567')).toBe('format');
      expect(rule('12345a')).toBe('format');
      expect(rule('739164')).toBeNull();
    }
    // Guessed first: a fund password of repeated, sequential or common digits.
    for (const pin of ['000000', '123456', '654321', '121212', '012345'])
      expect(fundPasswordRule(pin)).toBe('guessable');
    expect(codeRule('123456')).toBeNull(); // an e-mailed code is whatever the server sent
  });
});
