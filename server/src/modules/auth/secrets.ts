import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** 128-bit random session token, base64url (22 characters). */
export function newSessionToken(): string {
  return randomBytes(16).toString('base64url');
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Six digits from the CSPRNG, leading zeros kept. */
export function newVerificationCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

export function newSalt(): Buffer {
  return randomBytes(16);
}

/** SHA-256(salt || purpose || ':' || code): the code is bound to its purpose. */
export function hashCode(salt: Buffer, purpose: string, code: string): Buffer {
  return createHash('sha256').update(salt).update(`${purpose}:${code}`, 'utf8').digest();
}

export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
