import { createHash, createPublicKey, constants as cryptoConstants, type KeyObject, verify } from 'node:crypto';
import { ECDSASigValue } from '@peculiar/asn1-ecc';
import { AsnParser } from '@peculiar/asn1-schema';
import {
  type AuthenticationResponseJSON,
  PQCNotSupportedError,
  SettingsService,
  type VerifiedAuthenticationResponse,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import {
  cose,
  decodeClientDataJSON,
  decodeCredentialPublicKey,
  isoBase64URL,
  isoUint8Array,
  parseAuthenticatorData,
  verifySignature,
} from '@simplewebauthn/server/helpers';
import { weakRsaKey } from './rsa-exponent.ts';

/**
 * A passkey assertion's verification: the checks of @simplewebauthn/server 14.0.3's
 * `verifyAuthenticationResponse`, with its error messages, for the options our two callers pass (one
 * origin, one RP ID, no top origin, WebAuthn flag rules), in its order but one: the signature is checked
 * before the counter (see there); and one check more: a weak RSA key (exponent other than 65537, short
 * or even modulus) is refused (rsa-exponent.ts). The parsing is the library's own helpers. The other
 * difference is where the crypto runs: the two SHA-256 digests (RP ID, clientDataJSON) and the
 * signature check of the algorithms we register (ES256 on P-256, EdDSA on Ed25519, RS256) use
 * synchronous node:crypto, the same OpenSSL the library reaches through Web Crypto.
 *
 * Why: each Web Crypto call is a job on libuv's thread pool, and a hop there and back waits for the OS
 * to run two threads; on shared cores those waits were the whole tail of `passkey_verify_p99_ms`
 * (bench-passkey.ts), while the work itself is about 0.3 ms. The library has no way to pass it a crypto.
 *
 * A stored key of any other kind (none can be registered: `ALGORITHM_IDS`) goes to the library's own
 * `verifySignature`. `assertion-verify.test.ts` runs both over every refusal case and every algorithm.
 */
export interface AssertionCheck {
  response: AuthenticationResponseJSON;
  /** The challenge, or the single-use consumer that says whether it is ours (called once, before the crypto). */
  expectedChallenge: string | ((challenge: string) => boolean | Promise<boolean>);
  expectedOrigin: string;
  expectedRPID: string;
  credential: WebAuthnCredential;
  requireUserVerification?: boolean;
}

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

export async function verifyAssertion(check: AssertionCheck): Promise<VerifiedAuthenticationResponse> {
  const { response, expectedChallenge, expectedOrigin, expectedRPID, credential } = check;
  const requireUserVerification = check.requireUserVerification ?? true;
  const { id, rawId, type: credentialType, response: assertion } = response;
  if (!id) throw new Error('Missing credential ID');
  if (id !== rawId) throw new Error('Credential ID was not base64url-encoded');
  if (credentialType !== 'public-key')
    throw new Error(`Unexpected credential type ${credentialType}, expected "public-key"`);
  if (typeof assertion?.clientDataJSON !== 'string')
    throw new Error('Credential response clientDataJSON was not a string');
  const clientData = decodeClientDataJSON(assertion.clientDataJSON);
  const { type, origin, challenge, tokenBinding, crossOrigin, topOrigin } = clientData;
  if (type !== 'webauthn.get') throw new Error(`Unexpected authentication response type: ${type}`);
  if (typeof expectedChallenge === 'function') {
    if (!(await expectedChallenge(challenge)))
      throw new Error(`Custom challenge verifier returned false for registration response challenge "${challenge}"`);
  } else if (challenge !== expectedChallenge) {
    throw new Error(`Unexpected authentication response challenge "${challenge}", expected "${expectedChallenge}"`);
  }
  // No embedding page is expected: a cross-origin answer naming its top origin, or a top origin without
  // crossOrigin, is refused (the library does the same when no expectedTopOrigin is given).
  if (topOrigin) {
    if (crossOrigin) throw new Error(`Detected cross-origin authentication response from top origin of "${topOrigin}"`);
    throw new Error(`Unexpected top origin of "${topOrigin}" within a non-cross-origin authentication response`);
  }
  if (origin !== expectedOrigin)
    throw new Error(`Unexpected authentication response origin "${origin}", expected "${expectedOrigin}"`);
  if (!isoBase64URL.isBase64URL(assertion.authenticatorData))
    throw new Error('Credential response authenticatorData was not a base64url string');
  if (!isoBase64URL.isBase64URL(assertion.signature))
    throw new Error('Credential response signature was not a base64url string');
  if (assertion.userHandle && typeof assertion.userHandle !== 'string')
    throw new Error('Credential response userHandle was not a string');
  if (tokenBinding) {
    if (typeof tokenBinding !== 'object') throw new Error('ClientDataJSON tokenBinding was not an object');
    if (!['present', 'supported', 'notSupported'].includes(tokenBinding.status))
      throw new Error(`Unexpected tokenBinding status ${tokenBinding.status}`);
  }
  const authData = isoBase64URL.toBuffer(assertion.authenticatorData);
  const { rpIdHash, flags, counter, extensionsData } = parseAuthenticatorData(authData);
  if (!isoUint8Array.areEqual(rpIdHash, sha256(isoUint8Array.fromASCIIString(expectedRPID))))
    throw new Error('Unexpected RP ID hash');
  if (!flags.up) throw new Error('User not present during authentication');
  if (requireUserVerification && !flags.uv)
    throw new Error('User verification required, but user could not be verified');
  const clientDataHash = sha256(isoBase64URL.toBuffer(assertion.clientDataJSON));
  const signed = isoUint8Array.concat([authData, clientDataHash]);
  const signature = isoBase64URL.toBuffer(assertion.signature);
  const publicKey = decodeCredentialPublicKey(credential.publicKey);
  const alg = publicKey.get(cose.COSEKEYS.alg);
  if (typeof alg !== 'number') throw new Error('Credential public key was missing numeric alg');
  if (cose.isPQCCOSEAlg(alg) && !SettingsService.runtimeSupportsPQC()) throw new PQCNotSupportedError(alg);
  // A departure from the library: an RSA key with another exponent than 65537 (e = 1 or 1 + λ(n) "verify"
  // a forged signature) or a short or even modulus is refused before any signature check, whatever it
  // signed; registration refuses them too.
  if (weakRsaKey(publicKey)) throw new Error('Credential public key is a weak RSA key');
  const nodeKey = registeredKey(publicKey);
  const verified = nodeKey
    ? verify(nodeKey.hash, signed, nodeKey.key, nodeKey.signature(signature))
    : await verifySignature({ signature, data: signed, credentialPublicKey: credential.publicKey });
  // The one departure from the library, on purpose: it checks the counter before the signature, so an
  // answer nobody signed (anyone can have a sign-in challenge, a credential id is not secret) with a low
  // counter read as a cloned key, and the callers suspend the passkey, mail its owner and hold outflows.
  // Only a validly signed answer says anything about the counter.
  if (verified && (counter > 0 || credential.counter > 0) && counter <= credential.counter)
    throw new Error(`Response counter value ${counter} was lower than expected ${credential.counter}`);
  // parseBackupFlags (not exported by the library's helpers): backed up without being eligible is impossible.
  if (flags.bs && !flags.be)
    throw new Error('Single-device credential indicated that it was backed up, which should be impossible.');
  return {
    verified,
    authenticationInfo: {
      newCounter: counter,
      credentialID: credential.id,
      userVerified: flags.uv,
      credentialDeviceType: flags.be ? 'multiDevice' : 'singleDevice',
      credentialBackedUp: flags.bs,
      authenticatorExtensionResults: extensionsData,
      origin,
      rpID: expectedRPID,
    },
  };
}

interface NodeKey {
  hash: string | null;
  key: KeyObject | { key: KeyObject; padding?: number; dsaEncoding?: 'ieee-p1363' };
  signature: (signature: Uint8Array) => Uint8Array;
}
const asIs = (signature: Uint8Array) => signature;

/**
 * An ES256 signature (ASN.1 Ecdsa-Sig-Value) as r ‖ s of 32 bytes each, read as the library's
 * `unwrapEC2Signature` reads it (same ASN.1 parser, same padding rules). Not OpenSSL's DER reader:
 * authenticators in the wild send BER with a superfluous leading zero (go-webauthn/webauthn#408), which
 * the library accepts and OpenSSL's strict DER check would refuse.
 */
function p256Signature(signature: Uint8Array): Uint8Array {
  const parsed = AsnParser.parse(signature, ECDSASigValue);
  const part = (value: ArrayBuffer) => {
    const bytes = new Uint8Array(value);
    if (bytes.length < 32) return isoUint8Array.concat([new Uint8Array(32 - bytes.length), bytes]);
    if (bytes.length === 32) return bytes;
    if (bytes.length === 33 && bytes[0] === 0 && ((bytes[1] ?? 0) & 0x80) === 0x80) return bytes.subarray(1);
    throw new Error(`Invalid signature component length ${bytes.length}, expected 32`);
  };
  return isoUint8Array.concat([part(parsed.r), part(parsed.s)]);
}

/**
 * The node:crypto key of a COSE key of one of the algorithms we register, or null for any other kind
 * (the library verifies those). A malformed key of ours throws, as the library's import does.
 */
function registeredKey(cosePublicKey: cose.COSEPublicKey): NodeKey | null {
  const { COSEKEYS, COSEKTY, COSEALG, COSECRV } = cose;
  // The library's type names only kty and alg; the other parameters depend on the key type.
  const key = cosePublicKey as unknown as Map<number, unknown>;
  const kty = key.get(COSEKEYS.kty);
  const alg = key.get(COSEKEYS.alg);
  const b64 = (k: cose.COSEKEYS, name: string) => {
    const value = key.get(k);
    if (!(value instanceof Uint8Array) || value.length === 0) throw new Error(`Public key was missing ${name}`);
    return isoBase64URL.fromBuffer(new Uint8Array(value));
  };
  if (kty === COSEKTY.EC2 && alg === COSEALG.ES256 && key.get(COSEKEYS.crv) === COSECRV.P256) {
    const jwk = { kty: 'EC', crv: 'P-256', x: b64(COSEKEYS.x, 'x'), y: b64(COSEKEYS.y, 'y') };
    const ec = createPublicKey({ key: jwk, format: 'jwk' });
    return { hash: 'sha256', key: { key: ec, dsaEncoding: 'ieee-p1363' }, signature: p256Signature };
  }
  if (kty === COSEKTY.OKP && alg === COSEALG.EdDSA && key.get(COSEKEYS.crv) === COSECRV.ED25519) {
    const jwk = { kty: 'OKP', crv: 'Ed25519', x: b64(COSEKEYS.x, 'x') };
    return { hash: null, key: createPublicKey({ key: jwk, format: 'jwk' }), signature: asIs };
  }
  if (kty === COSEKTY.RSA && alg === COSEALG.RS256) {
    const jwk = { kty: 'RSA', n: b64(COSEKEYS.n, 'n'), e: b64(COSEKEYS.e, 'e') };
    const rsa = createPublicKey({ key: jwk, format: 'jwk' });
    return { hash: 'sha256', key: { key: rsa, padding: cryptoConstants.RSA_PKCS1_PADDING }, signature: asIs };
  }
  return null;
}
