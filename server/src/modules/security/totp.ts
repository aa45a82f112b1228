import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * RFC 6238 time-based codes (authenticator apps): SHA-1, 6 digits, 30 s steps — the parameters every
 * app reads from an otpauth:// URI. Pure functions; the service keeps the secret sealed and the last
 * accepted step, so a code is valid once (ASVS 6.5.1).
 */
export const TOTP_ISSUER = 'CW Wallet';
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of now: a phone clock off by up to 30 s still works. */
export const TOTP_DRIFT_STEPS = 1;
/** 160-bit secrets, as RFC 4226 recommends for HMAC-SHA-1. */
const SECRET_BYTES = 20;

export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

function totpOf(secretBase32: string, account: string): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label: account,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The otpauth:// URI a QR code carries: issuer "CW Wallet", the user name as account. */
export function totpUri(secretBase32: string, account: string): string {
  return totpOf(secretBase32, account).toString();
}

/** The time step of `at` (RFC 6238 T). */
export function totpStep(at: Date): number {
  return Math.floor(at.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/** The code for `at` (tests and the benchmark compute codes the way an app does). */
export function totpCode(secretBase32: string, at: Date): string {
  return totpOf(secretBase32, '').generate({ timestamp: at.getTime() });
}

/** The step a code belongs to, within ±TOTP_DRIFT_STEPS of `at`; null when it matches none. */
export function matchTotpStep(secretBase32: string, code: string, at: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secretBase32, '').validate({ token: code, timestamp: at.getTime(), window: TOTP_DRIFT_STEPS });
  return delta === null ? null : totpStep(at) + delta;
}

/** Recovery codes: 10 of 80 bits each (ASVS 6.5.2 asks at least 64), typed as 4 groups of 4 base32 letters. */
export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_CODE_BYTES = 10;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function newRecoveryCode(): string {
  const bytes = randomBytes(RECOVERY_CODE_BYTES);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out.match(/.{4}/g)?.join('-') ?? out;
}

/** As typed: case, spaces and dashes do not matter. */
export function normalizeRecoveryCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '');
}

export function hashRecoveryCode(salt: Buffer, code: string): Buffer {
  return createHash('sha256').update(salt).update(normalizeRecoveryCode(code)).digest();
}

export function recoveryCodeMatches(salt: Buffer, hash: Buffer, typed: string): boolean {
  const candidate = hashRecoveryCode(salt, typed);
  return candidate.length === hash.length && timingSafeEqual(candidate, hash);
}
