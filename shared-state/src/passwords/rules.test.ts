import { describe, expect, it } from 'vitest';
import { isGuessableFundPassword, PASSWORD_MAX, passwordMatchesAccount, passwordRule } from './rules.ts';

describe('passwordRule', () => {
  it('allows 8 to 128 printable characters of two kinds (pass phrases fit)', () => {
    expect(passwordRule('abcdef12')).toBeNull();
    expect(passwordRule(`Correct-Horse-Battery-Staple-${'x'.repeat(64)}`)).toBeNull();
    expect(passwordRule(`a1${'b'.repeat(PASSWORD_MAX - 2)}`)).toBeNull();
    expect(passwordRule(`a1${'b'.repeat(PASSWORD_MAX - 1)}`)).toBe('length');
    expect(passwordRule('abc1234')).toBe('length');
    expect(passwordRule('abcd 1234')).toBe('charset');
    expect(passwordRule('abcdefgh')).toBe('kinds');
  });
});

describe('passwordMatchesAccount', () => {
  it('is the user name or the e-mail in any case', () => {
    const account = { username: 'Alice_99', email: 'alice@example.com' };
    expect(passwordMatchesAccount('alice_99', account)).toBe(true);
    expect(passwordMatchesAccount('ALICE@example.com', account)).toBe(true);
    expect(passwordMatchesAccount('alice_990', account)).toBe(false);
    expect(passwordMatchesAccount('anything', {})).toBe(false);
  });
});

describe('isGuessableFundPassword', () => {
  it.each(['000000', '999999', '123456', '654321', '012345', '890123', '121212', '123123', '112233', '520520'])(
    'refuses %s',
    (pin) => {
      expect(isGuessableFundPassword(pin)).toBe(true);
    },
  );

  it.each(['739164', '204867', '135792', '918273'])('accepts %s', (pin) => {
    expect(isGuessableFundPassword(pin)).toBe(false);
  });

  it('refuses about 0.1 % of all PINs: the patterns, not a lottery', () => {
    let refused = 0;
    for (let n = 0; n < 1_000_000; n++) if (isGuessableFundPassword(n.toString().padStart(6, '0'))) refused++;
    expect(refused).toBe(10 + 20 + 90 + 990 + 9); // repeated digit, runs, other pairs, other triples, listed PINs
  });
});
