import { cose, decodeCredentialPublicKey } from '@simplewebauthn/server/helpers';

/**
 * The RSA keys a passkey may have: public exponent exactly 65537, modulus odd and of 2048 bits or more.
 *
 * Why exactly 65537 and not "odd and at least 65537" (NIST SP 800-56B §6.2.1 bounds e to
 * 65537 ≤ e < 2^256 for key generation, which assumes an honest generator): the registrant builds the
 * key, knows p and q, and can pick e = 1 + λ(n) (odd and huge), for which s^e ≡ s (mod n) for every s, as
 * with e = 1: the padded digest itself, which anyone can write, then "verifies" as a signature. Neither
 * node:crypto, OpenSSL (no bound on e for moduli up to 3072 bits) nor @simplewebauthn/server checks e.
 * Every authenticator uses 65537, so one value costs nothing, and it also bounds the verification work
 * (17 multiplications) that a huge e would let a registrant impose on each sign-in.
 *
 * The modulus: under 2048 bits is below what NIST allows for signatures (SP 800-131A), and an even n has
 * the factor 2 for anyone to see.
 *
 * What this cannot close without attestation (which we do not ask for): a registrant may choose an n
 * that is prime or whose factors it publishes; anyone who knows the factors can then sign for that key.
 * Only the account's owner (signed in, password proved within minutes) registers a key, so such a key weakens only the
 * account of whoever chose to make it weak.
 */
const RSA_EXPONENT = 65_537n;
const MIN_RSA_MODULUS_BITS = 2048;

/** A COSE big-endian unsigned integer (leading zero bytes allowed), or null when absent or empty. */
function unsigned(value: unknown): bigint | null {
  if (!(value instanceof Uint8Array) || value.length === 0) return null;
  return BigInt(`0x${Buffer.from(value).toString('hex')}`);
}

/** Whether a decoded COSE key is RSA (kty 3) and not one we accept (see above). Other kinds: false. */
export function weakRsaKey(publicKey: cose.COSEPublicKey): boolean {
  // The library's type names only kty and alg; n and e are parameters -1 and -2 of an RSA key.
  const key = publicKey as unknown as Map<number, unknown>;
  if (key.get(cose.COSEKEYS.kty) !== cose.COSEKTY.RSA) return false;
  const e = unsigned(key.get(cose.COSEKEYS.e));
  const n = unsigned(key.get(cose.COSEKEYS.n));
  if (e !== RSA_EXPONENT || n === null) return true;
  return n % 2n === 0n || n.toString(2).length < MIN_RSA_MODULUS_BITS;
}

/** The same check on a credential public key as registered or stored (COSE bytes). */
export function weakRsaCredentialKey(credentialPublicKey: Uint8Array<ArrayBuffer>): boolean {
  return weakRsaKey(decodeCredentialPublicKey(credentialPublicKey));
}
