import { generateKeyPairSync } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import { describe, expect, it } from 'vitest';
import { weakRsaCredentialKey } from './rsa-exponent.ts';
import { carmichaelExponent } from './soft-authenticator.ts';

/** Which RSA credential keys are refused: anything but e = 65537 with an odd modulus of 2048 bits or more. */
const rsa2048 = generateKeyPairSync('rsa', { modulusLength: 2048 });
const rsa1024 = generateKeyPairSync('rsa', { modulusLength: 1024 });
const nOf = (key: typeof rsa2048) => isoBase64URL.toBuffer(key.publicKey.export({ format: 'jwk' }).n ?? '');
const bytes = (value: bigint) => {
  const hex = value.toString(16);
  return new Uint8Array(Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex'));
};
const coseKey = (n: Uint8Array, e: Uint8Array) =>
  new Uint8Array(
    isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 3],
        [3, -257],
        [-1, n],
        [-2, e],
      ]),
    ),
  );

describe('weakRsaCredentialKey', () => {
  it('takes e = 65537 with a 2048-bit modulus, also written with a leading zero byte', () => {
    expect(weakRsaCredentialKey(coseKey(nOf(rsa2048), bytes(65_537n)))).toBe(false);
    expect(weakRsaCredentialKey(coseKey(nOf(rsa2048), Uint8Array.of(0, 1, 0, 1)))).toBe(false);
  });

  it.each([
    ['e = 1 + λ(n) (odd, huge: s^e ≡ s mod n)', carmichaelExponent(rsa2048.privateKey)],
    ['e = 2^256 + 1', 2n ** 256n + 1n],
    ['e = 2^255 + 1 (odd, within SP 800-56B bounds)', 2n ** 255n + 1n],
    ['e = 65539', 65_539n],
    ['e = 3', 3n],
    ['e = 1', 1n],
  ])('refuses %s', (_, e) => {
    expect(weakRsaCredentialKey(coseKey(nOf(rsa2048), bytes(e)))).toBe(true);
  });

  it('refuses a 1024-bit modulus, an even one and a missing exponent', () => {
    expect(weakRsaCredentialKey(coseKey(nOf(rsa1024), bytes(65_537n)))).toBe(true);
    const even = new Uint8Array(nOf(rsa2048));
    even[even.length - 1] = (even[even.length - 1] ?? 0) & 0xfe;
    expect(weakRsaCredentialKey(coseKey(even, bytes(65_537n)))).toBe(true);
    // 2048 bits written as 256 bytes, one of them a leading zero: 2040 bits.
    const short = Uint8Array.of(0, ...nOf(rsa2048).subarray(1));
    expect(weakRsaCredentialKey(coseKey(short, bytes(65_537n)))).toBe(true);
    expect(weakRsaCredentialKey(coseKey(nOf(rsa2048), new Uint8Array(0)))).toBe(true);
  });

  it('says nothing of other key types', () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const ec = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, isoBase64URL.toBuffer(jwk.x ?? '')],
      [-3, isoBase64URL.toBuffer(jwk.y ?? '')],
    ]);
    expect(weakRsaCredentialKey(new Uint8Array(isoCBOR.encode(ec)))).toBe(false);
  });
});
