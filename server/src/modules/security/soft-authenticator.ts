import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator (ES256, attestation "none", resident keys, user verification) for
 * the API tests and the bench: it answers the server's options as a browser with a platform
 * authenticator would, so the ceremonies run end to end without a browser. Not used by the app.
 */
interface Credential {
  id: Uint8Array;
  privateKey: KeyObject;
  cose: Uint8Array;
  rpId: string;
  userHandle: string;
  counter: number;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

interface SoftOptions {
  keepsCounter?: boolean;
  userVerified?: boolean;
  synced?: boolean;
  /**
   * An RS256 key whose COSE key names this public exponent, instead of ES256: a number, its bytes as
   * written (a leading zero byte), or 'carmichael' (1 + λ(n) from the key's own factors). The private key
   * is a real one with e = 65537: with another exponent only the registration (which signs nothing) is
   * meaningful, to test that weak keys are refused.
   */
  rsaExponent?: bigint | Uint8Array | 'carmichael';
  /** The RSA modulus' length in bits (2048 when not named). */
  rsaModulusBits?: number;
}

/** An RSA exponent as COSE has it: big-endian, no leading zero. */
function exponentBytes(exponent: bigint): Uint8Array {
  const hex = exponent.toString(16);
  return new Uint8Array(Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex'));
}

const b64u = (bytes: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(bytes));
const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash('sha256').update(data).digest());

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];
  readonly origin: string;
  readonly options: SoftOptions;

  /** `keepsCounter` false: an authenticator that always reports 0 (synced passkeys often do). */
  constructor(origin = 'http://localhost:8080', options: SoftOptions = {}) {
    this.origin = origin;
    this.options = options;
  }

  private authData(cred: Credential, attested: boolean): Uint8Array {
    const flags =
      FLAG_UP |
      (this.options.userVerified === false ? 0 : FLAG_UV) |
      (this.options.synced ? FLAG_BE | FLAG_BS : 0) |
      (attested ? FLAG_AT : 0);
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(cred.counter);
    const parts: Uint8Array[] = [sha256(cred.rpId), Uint8Array.of(flags), counter];
    if (attested) {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(cred.id.length);
      parts.push(new Uint8Array(16), len, cred.id, cred.cose);
    }
    return new Uint8Array(Buffer.concat(parts));
  }

  private clientData(type: string, challenge: string, origin = this.origin): string {
    return b64u(new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false })));
  }

  private newKey(): { privateKey: KeyObject; cose: Uint8Array } {
    const exponent = this.options.rsaExponent;
    if (exponent !== undefined) {
      const modulusLength = this.options.rsaModulusBits ?? 2048;
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength });
      const n = isoBase64URL.toBuffer(publicKey.export({ format: 'jwk' }).n ?? '');
      const e =
        exponent instanceof Uint8Array
          ? exponent
          : exponentBytes(exponent === 'carmichael' ? carmichaelExponent(privateKey) : exponent);
      const entries: [number, number | Uint8Array][] = [
        [1, 3],
        [3, -257],
        [-1, n],
        [-2, e],
      ];
      return { privateKey, cose: isoCBOR.encode(new Map(entries)) };
    }
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, isoBase64URL.toBuffer(jwk.x ?? '')],
        [-3, isoBase64URL.toBuffer(jwk.y ?? '')],
      ]),
    );
    return { privateKey, cose };
  }

  register(options: PublicKeyCredentialCreationOptionsJSON, origin = this.origin): RegistrationResponseJSON {
    const { privateKey, cose } = this.newKey();
    const cred: Credential = {
      id: new Uint8Array(randomBytes(32)),
      privateKey,
      cose,
      rpId: options.rp.id ?? 'localhost',
      userHandle: options.user.id,
      counter: 0,
    };
    this.credentials.push(cred);
    const fields = new Map<string, string | Uint8Array | Map<string, never>>();
    fields.set('fmt', 'none');
    fields.set('attStmt', new Map<string, never>());
    fields.set('authData', this.authData(cred, true));
    const attestationObject = isoCBOR.encode(fields);
    const id = b64u(cred.id);
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge, origin),
        attestationObject: b64u(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** Answers with `credential` (default: the first allowed one, or the newest for a discoverable sign-in). */
  authenticate(
    options: PublicKeyCredentialRequestOptionsJSON,
    extra: { credential?: Credential; origin?: string; counter?: number } = {},
  ): AuthenticationResponseJSON {
    const allowed = (options.allowCredentials ?? []).map((c) => c.id);
    const cred =
      extra.credential ??
      (allowed.length > 0
        ? this.credentials.find((c) => allowed.includes(b64u(c.id)))
        : this.credentials[this.credentials.length - 1]);
    if (!cred) throw new Error('no matching credential');
    if (this.options.keepsCounter !== false) cred.counter = extra.counter ?? cred.counter + 1;
    const authData = this.authData(cred, false);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, extra.origin);
    const signed = Buffer.concat([authData, sha256(isoBase64URL.toBuffer(clientDataJSON))]);
    const id = b64u(cred.id);
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON,
        authenticatorData: b64u(authData),
        signature: b64u(new Uint8Array(sign('sha256', signed, cred.privateKey))),
        userHandle: cred.userHandle,
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }
}

/**
 * A well-formed ES256 signature (a DER SEQUENCE of two random 32-byte integers) that no key made: what
 * someone without the private key can send with a passkey's (public) credential id.
 */
export function unsignedSignature(): string {
  const integer = () => {
    const bytes = randomBytes(32);
    bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x01;
    return Buffer.concat([Buffer.of(0x02, 32), bytes]);
  };
  const body = Buffer.concat([integer(), integer()]);
  return b64u(Buffer.concat([Buffer.of(0x30, body.length), body]));
}

/**
 * What anyone can send for an RSA key stored with e = 1 (s^1 mod n = s): the PKCS#1 v1.5 encoding of the
 * digest of what `answer` signs, as its signature, for a modulus of `modulusBytes`. No private key used.
 */
export function e1Forgery(answer: AuthenticationResponseJSON, modulusBytes = 256): AuthenticationResponseJSON {
  const authData = isoBase64URL.toBuffer(answer.response.authenticatorData);
  const signed = Buffer.concat([authData, sha256(isoBase64URL.toBuffer(answer.response.clientDataJSON))]);
  const digestInfo = Buffer.concat([Buffer.from('3031300d060960864801650304020105000420', 'hex'), sha256(signed)]);
  const pad = Buffer.alloc(modulusBytes - digestInfo.length - 3, 0xff);
  const signature = Buffer.concat([Buffer.of(0, 1), pad, Buffer.of(0), digestInfo]);
  return { ...answer, response: { ...answer.response, signature: b64u(signature) } };
}

/**
 * 1 + λ(n) for an RSA private key (λ: Carmichael's function, lcm(p - 1, q - 1)): odd and as long as n,
 * yet s^e ≡ s (mod n) for every s, as with e = 1. Whoever made the key knows p and q and can name it.
 */
export function carmichaelExponent(privateKey: KeyObject): bigint {
  const jwk = privateKey.export({ format: 'jwk' });
  const int = (b64: string | undefined) => BigInt(`0x${Buffer.from(isoBase64URL.toBuffer(b64 ?? '')).toString('hex')}`);
  const [p, q] = [int(jwk.p) - 1n, int(jwk.q) - 1n];
  let [a, b] = [p, q];
  while (b !== 0n) [a, b] = [b, a % b];
  return 1n + (p * q) / a;
}

/** `cose` (an RSA COSE key) with its exponent replaced by `exponent`: a stored key turned weak. */
export function withRsaExponent(cose: Uint8Array, exponent: bigint): Uint8Array {
  const key = isoCBOR.decodeFirst<Map<number, unknown>>(new Uint8Array(cose));
  key.set(-2, exponentBytes(exponent));
  return isoCBOR.encode(key as Map<number, number | Uint8Array>);
}
