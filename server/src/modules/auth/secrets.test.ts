import { describe, expect, it } from 'vitest';
import { hashCode, hashToken, newSalt, newSessionToken, newVerificationCode, sameHash } from './secrets.ts';

describe('secrets', () => {
  it('verification codes are exactly 6 digits, leading zeros kept, well spread', () => {
    const codes = Array.from({ length: 2000 }, newVerificationCode);
    expect(codes.every((c) => /^\d{6}$/.test(c))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(1990);
    const firstDigits = new Set(codes.map((c) => c[0]));
    expect(firstDigits.size).toBe(10); // includes '0'
  });

  it('session tokens carry 128 bits (22 base64url characters) and are stored as SHA-256', () => {
    const token = newSessionToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(16);
    expect(hashToken(token)).toHaveLength(32);
    expect(newSessionToken()).not.toBe(token);
  });

  it('code hashes are salted and bound to the purpose', () => {
    const salt = newSalt();
    const h = hashCode(salt, 'register', '123456');
    expect(sameHash(h, hashCode(salt, 'register', '123456'))).toBe(true);
    expect(sameHash(h, hashCode(salt, 'reset_password', '123456'))).toBe(false);
    expect(sameHash(h, hashCode(newSalt(), 'register', '123456'))).toBe(false);
    expect(sameHash(h, hashCode(salt, 'register', '123457'))).toBe(false);
  });
});
