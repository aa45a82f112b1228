import { cose, decodeCredentialPublicKey } from '@simplewebauthn/server/helpers';

/**
 * The RSA public exponents a passkey may have: odd and at least 65537 (NIST SP 800-56B §6.2.1; every
 * authenticator uses 65537). With e = 1 the signature check s^e mod n = s passes for the padded digest
 * itself, which anyone can write: such a key signs nothing (neither node:crypto nor
 * @simplewebauthn/server checks the exponent). Small odd ones (3) are refused by the same rule.
 */
const MIN_RSA_EXPONENT = 65_537n;

/** Whether a decoded COSE key is RSA (kty 3) with a missing, even or too small exponent. Other kinds: false. */
export function weakRsaKey(publicKey: cose.COSEPublicKey): boolean {
  // The library's type names only kty and alg; the exponent is parameter -2 of an RSA key.
  const key = publicKey as unknown as Map<number, unknown>;
  if (key.get(cose.COSEKEYS.kty) !== cose.COSEKTY.RSA) return false;
  const e = key.get(cose.COSEKEYS.e);
  if (!(e instanceof Uint8Array) || e.length === 0) return true;
  const exponent = BigInt(`0x${Buffer.from(e).toString('hex')}`);
  return exponent < MIN_RSA_EXPONENT || exponent % 2n === 0n;
}

/** The same check on a credential public key as registered or stored (COSE bytes). */
export function weakRsaCredentialKey(credentialPublicKey: Uint8Array<ArrayBuffer>): boolean {
  return weakRsaKey(decodeCredentialPublicKey(credentialPublicKey));
}
